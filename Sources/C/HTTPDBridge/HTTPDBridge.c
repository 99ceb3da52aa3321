// See HTTPDBridge.h.
#define _GNU_SOURCE  // POLLRDHUP
#include "HTTPDBridge.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

/// One open connection, as the head watch sees it (MHD's socket context of the connection).
/// Invariants, under `heads_lock`:
///   1. a connection is in the list from MHD's STARTED notification to its CLOSED one, which
///      MHD sends before it closes the socket, so `fd` is never a socket reused by another;
///   2. `waiting` is true from the connection's start, and again from the end of each response,
///      until the head of its next request is in; `since` is when that began;
///   3. `headed` is true from the first head that came in whole.
struct watched {
  struct watched *previous, *next;
  int fd;
  bool waiting;
  bool cut;
  bool headed;
  double since;
};

struct inkling_httpd {
  struct MHD_Daemon *daemon;
  atomic_uint in_flight;
  /// Set once the server stops: new connections are refused while those in flight finish.
  atomic_bool refusing;
  unsigned int room;
  unsigned int head_seconds;
  pthread_mutex_t heads_lock;
  pthread_cond_t heads_wake;
  /// Connections from the oldest start (or end of a response) to the newest.
  struct watched *first, *last;
  bool watching;
  pthread_t watcher;
};

/// The error headers and pages of the daemons started, as inkling_httpd_settings gives them.
/// Set before a daemon starts and never freed while the process runs: MHD's threads read them
/// unlocked, and a later daemon's list is stored only when it differs, which the server's never
/// does.
static const char *_Atomic error_headers;
static const char *_Atomic error_pages;

void inkling_mhd_error_response(struct MHD_Response *response) {
  const char *header = atomic_load(&error_headers);
  if (header == NULL) return;
  while (*header != '\0') {
    const char *value = header + strlen(header) + 1;
    MHD_add_response_header(response, header, value);
    header = value + strlen(value) + 1;
  }
}

const char *inkling_mhd_error_page(unsigned int status_code, size_t *length) {
  const char *entry = atomic_load(&error_pages);
  if (entry == NULL) return NULL;
  while (*entry != '\0') {
    const char *page = entry + strlen(entry) + 1;
    if (strtoul(entry, NULL, 10) == status_code) {
      *length = strlen(page);
      return page;
    }
    entry = page + strlen(page) + 1;
  }
  return NULL;
}

/// Length of a list in inkling_httpd_settings' form (names and values), its final NUL included.
static size_t header_list_length(const char *list) {
  const char *end = list;
  while (*end != '\0') {
    end += strlen(end) + 1;
    end += strlen(end) + 1;
  }
  return (size_t)(end - list) + 1;
}

/// Keeps a copy of `list` in `slot`, unless the same list is there.
static void keep_list(const char *_Atomic *slot, const char *list) {
  if (list == NULL) return;
  size_t length = header_list_length(list);
  const char *kept = atomic_load(slot);
  if (kept != NULL && header_list_length(kept) == length && memcmp(kept, list, length) == 0) return;
  char *copy = malloc(length);
  if (copy == NULL) return;
  memcpy(copy, list, length);
  atomic_store(slot, copy);
}

static double now_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void unlink_watched(struct inkling_httpd *httpd, struct watched *entry) {
  if (entry->previous) entry->previous->next = entry->next; else httpd->first = entry->next;
  if (entry->next) entry->next->previous = entry->previous; else httpd->last = entry->previous;
  entry->previous = entry->next = NULL;
}

static void append_watched(struct inkling_httpd *httpd, struct watched *entry) {
  entry->previous = httpd->last;
  entry->next = NULL;
  if (httpd->last) httpd->last->next = entry; else httpd->first = entry;
  httpd->last = entry;
}

/// Ends a connection still waiting for its head: shutdown, not close, so that the socket stays
/// MHD's until it sees the end of the stream and closes the connection itself.
static void cut(struct watched *entry) {
  if (entry->cut) return;
  entry->cut = true;
  shutdown(entry->fd, SHUT_RDWR);
}

/// Cuts the connections whose head is later than the deadline, about twice a second.
static void *watch_heads(void *cls) {
  struct inkling_httpd *httpd = cls;
  pthread_mutex_lock(&httpd->heads_lock);
  while (httpd->watching) {
    double now = now_seconds();
    for (struct watched *entry = httpd->first; entry; entry = entry->next) {
      if (entry->waiting && now - entry->since > (double)httpd->head_seconds) cut(entry);
    }
    struct timespec wake;
    clock_gettime(CLOCK_REALTIME, &wake);
    wake.tv_nsec += 500000000;
    if (wake.tv_nsec >= 1000000000) {
      wake.tv_sec += 1;
      wake.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&httpd->heads_wake, &httpd->heads_lock, &wake);
  }
  pthread_mutex_unlock(&httpd->heads_lock);
  return NULL;
}

/// MHD's accept policy: every connection until the server stops. Refusing here rather than
/// through MHD_quiesce_daemon, which in 0.9.75 races with its epoll worker threads (both take
/// the listening socket out of a worker's epoll set, and the loser panics).
///
/// Room for new clients: once `room` connections are open, each new one cuts the connection
/// that has waited longest for a head (slow clients, idle keep-alive ones), so that connections
/// which send nothing cannot fill the server; MHD's own limit, above `room`, leaves space for
/// the sockets being cut.
static enum MHD_Result accept_connection(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)address;
  (void)length;
  struct inkling_httpd *httpd = cls;
  if (atomic_load(&httpd->refusing)) return MHD_NO;
  pthread_mutex_lock(&httpd->heads_lock);
  unsigned int live = 0;
  for (struct watched *entry = httpd->first; entry; entry = entry->next) live += !entry->cut;
  for (struct watched *entry = httpd->first; entry && live >= httpd->room; entry = entry->next) {
    if (entry->waiting && !entry->cut) {
      cut(entry);
      live -= 1;
    }
  }
  pthread_mutex_unlock(&httpd->heads_lock);
  return MHD_YES;
}

/// The bytes socket `fd` has received, and those it has been given to send (acknowledged or
/// still queued); false when the system cannot tell.
static bool traffic(int fd, uint64_t *received, uint64_t *written) {
  struct tcp_info info;
  socklen_t length = sizeof(info);
  memset(&info, 0, sizeof(info));
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return false;
  if (length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(info.tcpi_bytes_received)) return false;
  int queued = 0;
  if (ioctl(fd, SIOCOUTQ, &queued) != 0) return false;
  *received = info.tcpi_bytes_received;
  *written = info.tcpi_bytes_acked + (uint64_t)queued;
  return true;
}

/// libmicrohttpd 0.9.75 closes a connection whose request line has no space in it (not HTTP:
/// `GARBAGE`, a TLS handshake sent to this plain port) without a word, where every other
/// malformed head gets its 400. This answers that one 400 as such a connection closes: one
/// whose client sent bytes of which no request head came, to which nothing has been written
/// (not MHD's own 400, 414 or 431), and which neither the head watch nor the server's stop is
/// closing. Only before a connection's first request: after a response, the bytes of a
/// request whose answer closed the connection may still arrive.
static void answer_unread_head(struct inkling_httpd *httpd, struct watched *entry) {
  uint64_t received, written;
  if (entry->headed || entry->cut || atomic_load(&httpd->refusing)) return;
  if (!traffic(entry->fd, &received, &written) || received == 0 || written != 0) return;
  static const char body[] =
      "<!doctype html><html lang=\"en\"><title>400 Bad Request</title><h1>400 Bad Request</h1><p>This is not an HTTP request.</p>\n";
  char head[2048];
  int length = snprintf(head, sizeof(head), "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: %zu\r\n",
                        sizeof(body) - 1);
  const char *header = atomic_load(&error_headers);
  while (header != NULL && *header != '\0' && length > 0 && (size_t)length < sizeof(head)) {
    const char *value = header + strlen(header) + 1;
    length += snprintf(head + length, sizeof(head) - (size_t)length, "%s: %s\r\n", header, value);
    header = value + strlen(value) + 1;
  }
  if (length <= 0 || (size_t)length + 2 >= sizeof(head)) return;
  memcpy(head + length, "\r\n", 2);
  length += 2;
  // Best effort: a client that has gone gets nothing, and nothing waits for a slow one.
  if (send(entry->fd, head, (size_t)length, MSG_NOSIGNAL | MSG_DONTWAIT) == length) {
    (void)send(entry->fd, body, sizeof(body) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  }
}

static void connection_changed(void *cls, struct MHD_Connection *connection, void **socket_context,
                               enum MHD_ConnectionNotificationCode code) {
  struct inkling_httpd *httpd = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct watched *entry = info ? calloc(1, sizeof(struct watched)) : NULL;
    *socket_context = entry;
    if (entry == NULL) return;  // not watched (out of memory): MHD's idle timeout still ends it
    entry->fd = info->connect_fd;
    entry->waiting = true;
    entry->since = now_seconds();
    pthread_mutex_lock(&httpd->heads_lock);
    append_watched(httpd, entry);
    pthread_mutex_unlock(&httpd->heads_lock);
  } else if (*socket_context != NULL) {
    struct watched *entry = *socket_context;
    pthread_mutex_lock(&httpd->heads_lock);
    answer_unread_head(httpd, entry);
    unlink_watched(httpd, entry);
    pthread_mutex_unlock(&httpd->heads_lock);
    free(entry);
    *socket_context = NULL;
  }
}

/// Marks the connection's head as in (`in`) or, after a response, waiting for the next one.
static void set_waiting(struct inkling_httpd *httpd, struct MHD_Connection *connection, bool waiting) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  struct watched *entry = info ? info->socket_context : NULL;
  if (entry == NULL) return;
  pthread_mutex_lock(&httpd->heads_lock);
  entry->waiting = waiting;
  entry->headed = entry->headed || !waiting;
  if (waiting) {
    entry->since = now_seconds();
    unlink_watched(httpd, entry);
    append_watched(httpd, entry);
  }
  pthread_mutex_unlock(&httpd->heads_lock);
}

/// A request's state in MHD's per-request slot: its raw URI, how far it got (0: nothing
/// seen, 1: headers seen, 2: answered or handed to a job) and the answer a job left for it.
struct request {
  int progress;
  void *_Atomic pending;
  size_t length;
  char uri[];
};

static void *request_started(void *cls, const char *uri, struct MHD_Connection *connection) {
  (void)connection;
  struct inkling_httpd *httpd = cls;
  size_t length = uri ? strlen(uri) : 0;
  struct request *request = malloc(sizeof(struct request) + length + 1);
  if (request == NULL) return NULL;  // the handler answers 500 for a request without its URI
  atomic_fetch_add(&httpd->in_flight, 1);
  request->progress = 0;
  atomic_init(&request->pending, NULL);
  request->length = length;
  if (length > 0) memcpy(request->uri, uri, length);
  request->uri[length] = '\0';
  return request;
}

static void request_ended(void *cls, struct MHD_Connection *connection, void **req_cls,
                          enum MHD_RequestTerminationCode code) {
  (void)code;
  struct inkling_httpd *httpd = cls;
  set_waiting(httpd, connection, true);
  if (*req_cls != NULL) {
    atomic_fetch_sub(&httpd->in_flight, 1);
    free(*req_cls);
    *req_cls = NULL;
  }
}

struct inkling_httpd *inkling_httpd_start(const struct inkling_httpd_settings *settings,
                                          MHD_AccessHandlerCallback handler, void *context) {
  keep_list(&error_headers, settings->error_headers);
  keep_list(&error_pages, settings->error_pages);
  struct inkling_httpd *httpd = calloc(1, sizeof(struct inkling_httpd));
  if (httpd == NULL) return NULL;
  atomic_init(&httpd->in_flight, 0);
  atomic_init(&httpd->refusing, false);
  httpd->room = settings->connection_limit;
  httpd->head_seconds = settings->head_seconds;
  pthread_mutex_init(&httpd->heads_lock, NULL);
  pthread_cond_init(&httpd->heads_wake, NULL);
  // MHD_USE_ITC: MHD_stop_daemon wakes the pool's threads through it.
  // MHD_ALLOW_SUSPEND_RESUME: a request whose answer is a job waits suspended (inkling_httpd_resume).
  unsigned int flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
  uint16_t port;
  if (settings->address->sa_family == AF_INET6) {
    flags |= MHD_USE_IPv6;
    port = ntohs(((const struct sockaddr_in6 *)settings->address)->sin6_port);
  } else {
    port = ntohs(((const struct sockaddr_in *)settings->address)->sin_port);
  }
  httpd->daemon = MHD_start_daemon(
      flags, port, accept_connection, httpd, handler, context,
      MHD_OPTION_SOCK_ADDR, settings->address,
      MHD_OPTION_THREAD_POOL_SIZE, settings->threads,
      MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit + settings->connection_limit / 2 + 16,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_limit,
      MHD_OPTION_NOTIFY_CONNECTION, connection_changed, httpd,
      MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->memory_limit,
      MHD_OPTION_URI_LOG_CALLBACK, request_started, httpd,
      MHD_OPTION_NOTIFY_COMPLETED, request_ended, httpd,
      MHD_OPTION_END);
  if (httpd->daemon == NULL) {
    free(httpd);
    return NULL;
  }
  httpd->watching = true;
  if (pthread_create(&httpd->watcher, NULL, watch_heads, httpd) != 0) {
    MHD_stop_daemon(httpd->daemon);
    free(httpd);
    return NULL;
  }
  return httpd;
}

const char *inkling_httpd_raw_uri(void *const *req_cls, size_t *length) {
  const struct request *request = req_cls ? *req_cls : NULL;
  if (request == NULL) {
    *length = 0;
    return NULL;
  }
  *length = request->length;
  return request->uri;
}

enum inkling_httpd_step inkling_httpd_next_step(struct inkling_httpd *httpd, struct MHD_Connection *connection,
                                                void *const *req_cls) {
  struct request *request = req_cls ? *req_cls : NULL;
  if (request == NULL) return INKLING_HTTPD_ANSWER;  // out of memory: answered at once, 500
  switch (request->progress) {
    case 0:
      set_waiting(httpd, connection, false);
      request->progress = 1;
      return INKLING_HTTPD_WAIT;
    case 1:
      request->progress = 2;
      return INKLING_HTTPD_ANSWER;
    default:
      return atomic_load(&request->pending) != NULL ? INKLING_HTTPD_RESUMED : INKLING_HTTPD_DONE;
  }
}

void *inkling_httpd_request(void *const *req_cls) { return req_cls ? *req_cls : NULL; }

void inkling_httpd_resume(struct MHD_Connection *connection, void *request, void *answer) {
  atomic_store(&((struct request *)request)->pending, answer);
  MHD_resume_connection(connection);
}

void *inkling_httpd_take_answer(void *const *req_cls) {
  struct request *request = req_cls ? *req_cls : NULL;
  return request ? atomic_exchange(&request->pending, NULL) : NULL;
}

bool inkling_httpd_client_gone(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (info == NULL) return false;
  struct pollfd socket = {.fd = info->connect_fd, .events = POLLRDHUP};
  return poll(&socket, 1, 0) == 1 && (socket.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

uint16_t inkling_httpd_port(struct inkling_httpd *httpd) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(httpd->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

unsigned int inkling_httpd_in_flight(struct inkling_httpd *httpd) { return atomic_load(&httpd->in_flight); }

void inkling_httpd_quiesce(struct inkling_httpd *httpd) { atomic_store(&httpd->refusing, true); }

void inkling_httpd_stop(struct inkling_httpd *httpd) {
  pthread_mutex_lock(&httpd->heads_lock);
  httpd->watching = false;
  pthread_cond_signal(&httpd->heads_wake);
  pthread_mutex_unlock(&httpd->heads_lock);
  pthread_join(httpd->watcher, NULL);
  MHD_stop_daemon(httpd->daemon);
  pthread_mutex_destroy(&httpd->heads_lock);
  pthread_cond_destroy(&httpd->heads_wake);
  free(httpd);
}
