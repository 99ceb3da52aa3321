// See HTTPDBridge.h.
#include "HTTPDBridge.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct inkling_httpd {
  struct MHD_Daemon *daemon;
  atomic_uint in_flight;
  /// Set once the server stops: new connections are refused while those in flight finish.
  atomic_bool refusing;
};

/// MHD's accept policy: every connection until the server stops. Refusing here rather than
/// through MHD_quiesce_daemon, which in 0.9.75 races with its epoll worker threads (both take
/// the listening socket out of a worker's epoll set, and the loser panics).
static enum MHD_Result accept_connection(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)address;
  (void)length;
  struct inkling_httpd *httpd = cls;
  return atomic_load(&httpd->refusing) ? MHD_NO : MHD_YES;
}

/// A request's state in MHD's per-request slot: its raw URI and how far it got (0: nothing
/// seen, 1: headers seen, 2: answered).
struct request {
  int progress;
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
  request->length = length;
  if (length > 0) memcpy(request->uri, uri, length);
  request->uri[length] = '\0';
  return request;
}

static void request_ended(void *cls, struct MHD_Connection *connection, void **req_cls,
                          enum MHD_RequestTerminationCode code) {
  (void)connection;
  (void)code;
  struct inkling_httpd *httpd = cls;
  if (*req_cls != NULL) {
    atomic_fetch_sub(&httpd->in_flight, 1);
    free(*req_cls);
    *req_cls = NULL;
  }
}

struct inkling_httpd *inkling_httpd_start(const struct inkling_httpd_settings *settings,
                                          MHD_AccessHandlerCallback handler, void *context) {
  struct inkling_httpd *httpd = calloc(1, sizeof(struct inkling_httpd));
  if (httpd == NULL) return NULL;
  atomic_init(&httpd->in_flight, 0);
  atomic_init(&httpd->refusing, false);
  // MHD_USE_ITC: MHD_stop_daemon wakes the pool's threads through it.
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ITC;
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
      MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->memory_limit,
      MHD_OPTION_URI_LOG_CALLBACK, request_started, httpd,
      MHD_OPTION_NOTIFY_COMPLETED, request_ended, httpd,
      MHD_OPTION_END);
  if (httpd->daemon == NULL) {
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

enum inkling_httpd_step inkling_httpd_next_step(void *const *req_cls) {
  struct request *request = req_cls ? *req_cls : NULL;
  if (request == NULL) return INKLING_HTTPD_ANSWER;  // out of memory: answered at once, 500
  switch (request->progress) {
    case 0:
      request->progress = 1;
      return INKLING_HTTPD_WAIT;
    case 1:
      request->progress = 2;
      return INKLING_HTTPD_ANSWER;
    default:
      return INKLING_HTTPD_DONE;
  }
}

uint16_t inkling_httpd_port(struct inkling_httpd *httpd) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(httpd->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

unsigned int inkling_httpd_in_flight(struct inkling_httpd *httpd) { return atomic_load(&httpd->in_flight); }

void inkling_httpd_quiesce(struct inkling_httpd *httpd) { atomic_store(&httpd->refusing, true); }

void inkling_httpd_stop(struct inkling_httpd *httpd) {
  MHD_stop_daemon(httpd->daemon);
  free(httpd);
}
