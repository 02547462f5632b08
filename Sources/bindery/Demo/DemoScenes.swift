import Bindery

// Placeholder until the demo scenes land (branch `demo`): registers nothing. The demo
// engineer replaces this file (or removes it when `registerDemoScenes` comes from the
// `BinderyDemo` module, imported by main.swift).

/// Registers the demo app's scenes (colors, counter, date, login, repos, echo, board).
func registerDemoScenes(_ registry: SceneRegistry) {}
