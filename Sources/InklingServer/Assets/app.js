// inkling-archive serve: what a script adds to pages that work without it.
//   - the grid loads its next page when the "More drafts" link scrolls into view, appending
//     that page's cards (the link's own URL, fetched and parsed as HTML: the server renders
//     cards in one place only);
//   - the search box searches as one types: the grid is fetched again for the new query and
//     swapped in, and the address follows (history.replaceState), so it can be bookmarked.
//     A query or date the server cannot read (a 400) shows the server's sentence and keeps
//     the last good results, dimmed, until the next search that reads.
//   - the draft page's time-lapse gets a scrubber of its saves under the player, from the
//     server's page of the saves in it (/draft/marks, parsed as HTML); choosing a save seeks
//     the video to it, pauses there and shows the link to its version. When the server
//     cannot make the video, its sentence replaces the player.
// Nothing here builds markup from text: cards come from the server's HTML through DOMParser,
// which runs no scripts, and are adopted as nodes.
"use strict";

(function () {
  const parser = new DOMParser();

  async function fetchPage(url) {
    const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    return parser.parseFromString(await response.text(), "text/html");
  }

  // The page for a search, and whether it holds results (a search or a date that does not
  // read is a 400 whose page says why).
  async function fetchSearch(url) {
    const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    return { doc: parser.parseFromString(await response.text(), "text/html"), ok: response.ok };
  }

  function replaceById(doc, id) {
    const mine = document.getElementById(id);
    const theirs = doc.getElementById(id);
    if (mine && theirs) mine.replaceWith(document.adoptNode(theirs));
    else if (mine) mine.replaceChildren();
    else if (theirs) {
      const main = document.querySelector("main");
      if (main) main.prepend(document.adoptNode(theirs));
    }
  }

  // MARK: - More drafts as one scrolls

  let loading = false;
  const observer = "IntersectionObserver" in window ? new IntersectionObserver(onVisible, { rootMargin: "600px" }) : null;

  function watchMore() {
    const more = document.getElementById("more");
    if (observer && more) observer.observe(more);
  }

  async function onVisible(entries) {
    if (loading || !entries.some((entry) => entry.isIntersecting)) return;
    const more = document.getElementById("more");
    const grid = document.getElementById("grid");
    if (!more || !grid || grid.classList.contains("stale")) return; // not more of an old search
    loading = true;
    observer.unobserve(more);
    try {
      const doc = await fetchPage(more.href);
      const cards = doc.querySelectorAll("#grid > li");
      for (const card of cards) grid.appendChild(document.adoptNode(card));
      const next = doc.getElementById("more");
      if (next) more.href = next.href;
      else more.remove();
    } finally {
      loading = false;
      watchMore();
    }
  }

  // MARK: - Live search

  const form = document.getElementById("search");
  // The grid's path: the form's action, which holds the token's segments when the page's
  // address does (the server's links carry them; AccessControl.swift).
  const gridPath = form ? new URL(form.action, location.href).pathname : "/";
  let timer = null;
  let generation = 0;

  function gridURL() {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value !== "string" || value === "") continue;
      if (key === "sort" && value === "newest") continue;
      params.append(key, value);
    }
    const query = params.toString();
    return gridPath + (query ? "?" + query : "");
  }

  async function search() {
    const url = gridURL();
    const mine = ++generation;
    const { doc, ok } = await fetchSearch(url);
    if (mine !== generation) return; // a newer search is on its way
    if (location.pathname !== gridPath) {
      location.assign(url);
      return;
    }
    if (!ok && doc.getElementById("problem")) {
      // What was wrong, over the results of the last search that read.
      replaceById(doc, "problem");
      // The sentence is above the grid: bring it out from under the bar if one has scrolled.
      const problem = document.getElementById("problem");
      const bar = document.querySelector(".bar");
      if (problem && bar && problem.getBoundingClientRect().top < bar.getBoundingClientRect().bottom) {
        window.scrollTo({ top: 0 });
      }
      const grid = document.getElementById("grid");
      if (grid) grid.classList.add("stale");
      history.replaceState(null, "", url);
      return;
    }
    for (const id of ["problem", "count", "empty", "grid", "pages"]) replaceById(doc, id);
    const twin = document.querySelector(".twin");
    const theirTwin = doc.querySelector(".twin");
    if (twin && theirTwin) twin.replaceWith(document.adoptNode(theirTwin));
    document.title = doc.title;
    history.replaceState(null, "", url);
    watchMore();
  }

  if (form) {
    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(search, 250);
    });
    form.addEventListener("submit", (event) => {
      if (location.pathname !== gridPath) return; // elsewhere the form goes to the grid as usual
      event.preventDefault();
      clearTimeout(timer);
      search();
    });
  }

  const timelapse = document.getElementById("timelapse");

  function showProblem(doc) {
    const sentence = doc.querySelector(".problem p");
    const problem = document.getElementById("timelapse-problem");
    problem.textContent = sentence ? sentence.textContent : "The time-lapse cannot be shown.";
    problem.hidden = false;
    for (const id of ["timelapse-video", "scrubber", "mark-version"]) {
      const element = document.getElementById(id);
      if (element) element.remove();
    }
    const links = timelapse.querySelector(".timelapse-links");
    if (links) links.remove();
  }

  // The scrubber of the saves: one step for each save, in order, whatever their times (saves
  // minutes apart and saves seconds apart are each one step, so none hides another, for 200
  // saves as for 2). The arrow keys, Home, End and Page Up/Down move between saves, a drag or
  // a tap anywhere on the track picks one; each seeks the video to its save, pauses there and
  // shows the link to its version. While the video plays, the scrubber follows it.
  async function loadMarks() {
    const video = document.getElementById("timelapse-video");
    const scrubber = document.getElementById("scrubber");
    const slider = document.getElementById("saves");
    const shown = document.getElementById("mark-version");
    let response;
    let doc;
    try {
      response = await fetch(timelapse.dataset.marks, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      doc = parser.parseFromString(await response.text(), "text/html");
    } catch (error) {
      return; // the page still plays the video; the marks come with the next load
    }
    if (!response.ok) {
      showProblem(doc);
      return;
    }
    const marks = Array.from(doc.querySelectorAll("#marks-list li"), (item) => {
      const link = item.querySelector("a.mark");
      const label = item.querySelector(".mark-label");
      return {
        seconds: parseFloat(link.dataset.seconds),
        version: link.dataset.version,
        href: link.getAttribute("href"),
        label: label ? label.textContent : link.textContent,
      };
    });
    if (marks.length === 0) return;
    slider.max = String(marks.length);
    const describe = (index) => {
      slider.value = String(index + 1);
      slider.setAttribute("aria-valuetext", marks[index].label);
      slider.dataset.version = marks[index].version;
      slider.dataset.seconds = String(marks[index].seconds);
    };
    describe(0);
    slider.addEventListener("input", () => {
      const mark = marks[parseInt(slider.value, 10) - 1];
      describe(parseInt(slider.value, 10) - 1);
      video.pause();
      video.currentTime = mark.seconds;
      const version = document.createElement("a");
      version.href = mark.href;
      version.textContent = mark.label;
      shown.replaceChildren(version);
    });
    video.addEventListener("timeupdate", () => {
      if (video.paused && !video.ended) return; // a save just chosen stays chosen
      let index = 0;
      while (index + 1 < marks.length && marks[index + 1].seconds <= video.currentTime) index += 1;
      describe(index);
    });
    scrubber.hidden = false;
  }

  const video = document.getElementById("timelapse-video");
  if (timelapse && video) {
    video.addEventListener("error", async () => {
      try {
        const response = await fetch(video.currentSrc || video.src, { credentials: "same-origin" });
        if (!response.ok) showProblem(parser.parseFromString(await response.text(), "text/html"));
      } catch (error) {
        // the network is gone; the player shows its own error
      }
    });
    // Marked when done, for tests that wait for the page to settle.
    loadMarks().finally(() => { timelapse.dataset.marksLoaded = "true"; });
  }

  watchMore();
})();
