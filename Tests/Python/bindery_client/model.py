"""A client's copy of a scene (PROTOCOL.md): widget id -> props, from a `scene` message,
kept current by `patch` messages (values, keyed row ops, added and removed widgets)."""


def scene_props(scene):
    return {w["id"]: dict(w["props"]) for w in scene["widgets"]}


def apply_rows(rows, change):
    """A list change (a whole value, or keyed ops) applied to `rows`, in place; returns them."""
    if "value" in change:
        rows[:] = change["value"]
        return rows
    for op in change["ops"]:
        if op["op"] == "remove":
            del rows[op["index"]:op["index"] + op["count"]]
        elif op["op"] == "insert":
            rows[op["index"]:op["index"]] = op["rows"]
        elif op["op"] == "update":
            rows[op["index"]] = op["row"]
        elif op["op"] == "move":
            rows.insert(op["to"], rows.pop(op["from"]))
        else:
            raise AssertionError(f"unknown list op {op}")
    return rows


def apply_patch(props, patch):
    """A `patch` message applied to `props` (widget id -> props), in place."""
    for widget in patch.get("removed", []):
        props.pop(widget, None)
    for widget in patch.get("added", []):
        props[widget["id"]] = dict(widget["props"])
    for change in patch.get("changes", []):
        target = props.setdefault(change["target"], {})
        if "value" in change:
            target[change["prop"]] = change["value"]
        else:
            apply_rows(target[change["prop"]], change)


class Model:
    """`props`: widget id -> props."""

    def __init__(self, scene=None):
        self.props = scene_props(scene) if scene else {}

    def apply(self, patch):
        apply_patch(self.props, patch)
