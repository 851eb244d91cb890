"""The Defenders package's import structure: the rules modules form layers, not a knot.

No module of ``warhorn.games.defenders`` imports another in a circle (imports under
``TYPE_CHECKING`` are for annotations only and are not counted), and the state and the
rules import each other only at module level, never inside a function on the hot path.
"""

from __future__ import annotations

import ast
from pathlib import Path

import warhorn.games.defenders as package

PACKAGE = "warhorn.games.defenders"
ROOT = Path(package.__file__).parent


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        out[name] = ast.parse(path.read_text(), str(path))
    return out


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"


def _imported(node: ast.ImportFrom) -> set[str]:
    """The package modules an import statement names (``from pkg import module`` counts the module)."""
    assert node.module is not None
    if not node.module.startswith(PACKAGE):
        return set()
    return {f"{node.module}.{a.name}" for a in node.names} | {node.module}


def _graph(modules: dict[str, ast.Module]) -> dict[str, set[str]]:
    graph = {}
    for name, tree in modules.items():
        deps: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                deps |= _imported(node) & modules.keys()
        graph[name] = deps - {name}
    return graph


def test_no_module_of_the_package_imports_another_in_a_circle() -> None:
    graph = _graph(_modules())
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = [*path[path.index(name) :], name]
            raise AssertionError("import cycle: " + " -> ".join(m.rsplit(".", 1)[-1] for m in cycle))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_state_and_rules_import_nothing_of_the_package_inside_functions() -> None:
    """In-function imports hid the knot and cost time on every call (state.pending used to
    import the turn module each time it was asked)."""
    found = []
    for name, tree in _modules().items():
        if not (name.endswith(".state") or ".rules." in name):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and _imported(inner):
                        found.append(f"{name}.{node.name} imports {inner.module}")
    assert found == []
