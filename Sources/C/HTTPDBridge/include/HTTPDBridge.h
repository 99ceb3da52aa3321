// HTTPDBridge: a libmicrohttpd daemon for Swift.
//
// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call; these
// functions take a struct instead. The bridge also
//   - keeps each request's URI exactly as the client sent it (MHD_OPTION_URI_LOG_CALLBACK runs
//     before MHD percent-decodes the path in place), so that the server decodes it itself and
//     sees an encoded slash or NUL byte rather than a path separator or a shorter string;
//   - counts the requests in flight (from the request line to the end of the response), so
//     that a clean stop can wait for them without waiting for idle keep-alive connections;
//   - remembers how far a request got: MHD calls the handler once when the headers are in, again
//     for each piece of a body, and once at its end. A response queued on the first call makes
//     MHD close the connection (it cannot know the request is complete), so the handler answers
//     on the last call, once;
//   - keeps slow clients from holding the server (slowloris): a connection must send a whole
//     request head within `head_seconds` of its start or of its previous response, else it is
//     cut (MHD's idle timeout starts again at every byte, so a header line every few seconds
//     would keep a connection for good); one address may hold `per_address_limit`
//     connections; and past `connection_limit` a new connection cuts the one that has waited
//     longest for its head, so that a new client always gets in;
//   - answers 400 to a connection whose first bytes are no request head at all (a request line
//     without a space, which libmicrohttpd closes without a word; HTTPDBridge.c says how it
//     tells);
//   - lets a request wait, suspended, for an answer computed on another thread (a job of the
//     server's work queue), and tells whether its client has gone meanwhile.
//   - gives the error responses libmicrohttpd writes itself (400, 413, 414, 431, 500, 505) the
//     headers every other response carries and pages of the program's, where the library calls
//     inkling_mhd_error_response and inkling_mhd_error_page: the release build's libmicrohttpd
//     does, by a small patch (packaging/libmicrohttpd/); Debian's shared library, which
//     development builds link, calls neither.
#ifndef INKLING_HTTPD_BRIDGE_H
#define INKLING_HTTPD_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How the daemon listens and what it allows each connection.
struct inkling_httpd_settings {
  /// The address to bind, IPv4 (`struct sockaddr_in`) or IPv6 (`struct sockaddr_in6`), with
  /// its port (0: any free port, see inkling_httpd_port).
  const struct sockaddr *address;
  /// Threads of MHD's internal pool, each polling its connections with epoll and running
  /// their handlers.
  unsigned int threads;
  /// Connections open at once before a new one cuts the oldest waiting for its head (MHD's
  /// own limit, which refuses at accept, is half as much again).
  unsigned int connection_limit;
  /// Connections open at once from one address (more are refused at accept).
  unsigned int per_address_limit;
  /// Seconds a connection has to send the head of a request (at its start, or after the
  /// previous response) before it is cut.
  unsigned int head_seconds;
  /// Seconds a connection may stay idle (a slow or vanished client) before it is closed.
  unsigned int timeout_seconds;
  /// Bytes of memory per connection for the request line and headers: a longer request is
  /// answered 414 or 431 by MHD itself.
  size_t memory_limit;
  /// The headers of MHD's own error responses: names and values, each ended by a NUL byte,
  /// name after value, the list ended by an empty name ("A\0a\0B\0b\0\0"); copied.
  const char *error_headers;
  /// The pages of MHD's own error responses, in the same form: each status in decimal, then
  /// its page ("414\0<!doctype html>…\0\0"); copied. A status not in the list keeps MHD's.
  const char *error_pages;
};

/// A running daemon.
struct inkling_httpd;

/// Starts a daemon whose access handler is `handler` (with `context` as its first argument).
/// Returns NULL when it cannot start (the port is taken, the address cannot be bound).
struct inkling_httpd *inkling_httpd_start(const struct inkling_httpd_settings *settings,
                                          MHD_AccessHandlerCallback handler, void *context);

/// Adds the error headers of the daemons started (see inkling_httpd_settings) to `response`,
/// an error response libmicrohttpd is about to queue. The patched libmicrohttpd calls it.
void inkling_mhd_error_response(struct MHD_Response *response);

/// The page of the daemons started for an error response with `status_code` that
/// libmicrohttpd is about to make, and its length in `*length`; NULL to keep the library's.
/// The patched libmicrohttpd calls it.
const char *inkling_mhd_error_page(unsigned int status_code, size_t *length);

/// The raw URI of a request, from the handler's `req_cls`, or NULL (out of memory). `*length`
/// receives its length in bytes.
const char *inkling_httpd_raw_uri(void *const *req_cls, size_t *length);

/// What the handler should do with this call of a request.
enum inkling_httpd_step {
  /// The headers are in: wait for the rest.
  INKLING_HTTPD_WAIT = 0,
  /// The request is complete: answer it now.
  INKLING_HTTPD_ANSWER = 1,
  /// Already answered: nothing more to do.
  INKLING_HTTPD_DONE = 2,
  /// A job has left its answer (inkling_httpd_resume): take it and queue it.
  INKLING_HTTPD_RESUMED = 3,
};

/// Advances the request of `req_cls` (called on each call of the handler without upload data).
enum inkling_httpd_step inkling_httpd_next_step(struct inkling_httpd *httpd, struct MHD_Connection *connection,
                                                void *const *req_cls);

/// The request of `req_cls`, for inkling_httpd_resume (valid until the request ends, which a
/// suspended request does not).
void *inkling_httpd_request(void *const *req_cls);

/// Leaves `answer` (non-NULL) for `request` and resumes its connection, which MHD_suspend_connection
/// suspended in the handler; MHD then calls the handler again, which takes it. Any thread.
void inkling_httpd_resume(struct MHD_Connection *connection, void *request, void *answer);

/// The answer left for the request of `req_cls`, once (NULL when none).
void *inkling_httpd_take_answer(void *const *req_cls);

/// Whether the client has closed its side of the connection (a browser that left the page:
/// none half-closes and waits), so that work for it can be dropped.
bool inkling_httpd_client_gone(struct MHD_Connection *connection);

/// The port the daemon listens on (the one chosen when 0 was asked for); 0 if unknown.
uint16_t inkling_httpd_port(struct inkling_httpd *httpd);

/// The requests between their request line and the end of their response now.
unsigned int inkling_httpd_in_flight(struct inkling_httpd *httpd);

/// Refuses new connections from now on; those open go on.
void inkling_httpd_quiesce(struct inkling_httpd *httpd);

/// Closes every connection, waits for the daemon's threads and frees `httpd`.
void inkling_httpd_stop(struct inkling_httpd *httpd);

#ifdef __cplusplus
}
#endif

#endif
