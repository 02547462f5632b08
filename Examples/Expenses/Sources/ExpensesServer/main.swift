// Serves Expenses at http://127.0.0.1:8080/scene/expenses (auto-rendered: the browser
// client comes with Bindery). `swift run ExpensesServer`; `--help` lists the options.
// Ctrl-C or SIGTERM stops it gracefully.

import Bindery
import Expenses

BinderyServer.main(name: "ExpensesServer", scenes: registerExpenses)
