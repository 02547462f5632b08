#ifndef BINDERY_CLIBUV_SHIM_H
#define BINDERY_CLIBUV_SHIM_H
#include <uv.h>

/*
 * libuv's handle and request types share a common prefix ("uv_handle_t is the base
 * of uv_tcp_t"). C code casts between them freely; Swift would need
 * assumingMemoryBound on every call. These helpers keep that punning in C, where it
 * is the documented way to use libuv.
 */

static inline uv_handle_t *bindery_tcp_handle(uv_tcp_t *tcp) { return (uv_handle_t *)tcp; }
static inline uv_stream_t *bindery_tcp_stream(uv_tcp_t *tcp) { return (uv_stream_t *)tcp; }
static inline uv_tcp_t *bindery_stream_tcp(uv_stream_t *stream) { return (uv_tcp_t *)stream; }
static inline uv_handle_t *bindery_timer_handle(uv_timer_t *timer) { return (uv_handle_t *)timer; }
static inline uv_handle_t *bindery_async_handle(uv_async_t *async) { return (uv_handle_t *)async; }
static inline uv_handle_t *bindery_signal_handle(uv_signal_t *signal) { return (uv_handle_t *)signal; }
static inline uv_handle_t *bindery_idle_handle(uv_idle_t *idle) { return (uv_handle_t *)idle; }

/* Error codes are an enum in uv.h whose values depend on the platform's errno. */
static inline int bindery_uv_eof(void) { return UV_EOF; }
static inline int bindery_uv_einval(void) { return UV_EINVAL; }
static inline int bindery_uv_ecanceled(void) { return UV_ECANCELED; }
static inline int bindery_uv_eagain(void) { return UV_EAGAIN; }

#endif
