"""The Python client of Bindery's test families (Tests/Browser, Tests/Reliability,
Tests/Cluster, Tests/Integration) and Benchmarks: a raw WebSocket session client, the
HTTP session API and its SSE stream, a patch applier, and launchers for `bindery` and
`redis-server`. Loopback only. Scripts put Tests/Python on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Python"))
    from bindery_client import Client, Closed, Model, Bindery
"""
from .checks import Checks
from .httpapi import EventStream, HTTPFailed, http_get, metrics, parse_metrics, request, request_sync
from .model import Model, apply_patch, apply_rows, scene_props
from .process import HOST, ROOT, Bindery, RedisServer, fds, free_port, redis_cli, rss_kib, wait_http, wait_port
from .websocket import ZERO_KEY, Client, Closed, frame

__all__ = ["Checks", "EventStream", "HTTPFailed", "http_get", "metrics", "parse_metrics", "request", "request_sync", "Model", "apply_patch",
           "apply_rows", "scene_props", "HOST", "ROOT", "Bindery", "RedisServer", "fds", "free_port", "redis_cli", "rss_kib",
           "wait_http", "wait_port", "ZERO_KEY", "Client", "Closed", "frame"]
