#ifndef BINDERY_CLIBUV_SHIM_H
#define BINDERY_CLIBUV_SHIM_H
#include <uv.h>
#endif
