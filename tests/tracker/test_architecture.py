"""The domains of ``tracker/`` import only downward, in no circle, in modules of readable size.

docs/architecture.md draws the floors: the rules engine at the bottom, then the common
ground, the household, the table, the evenings, the ratings, looking back, and on top
paper, the room and portability side by side. The project's shell (settings, URLs, the
admin, the model registry, commands, template tags, migrations) sits above them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each domain's floor: a module may import from its own floor's domain and from lower floors.
FLOORS = {
    "games": 0,
    "tracker.common": 1,
    "tracker.households": 2,
    "tracker.table": 3,
    "tracker.evenings": 4,
    "tracker.ratings": 5,
    "tracker.looking_back": 6,
    "tracker.paper": 7,
    "tracker.room": 7,
    "tracker.portability": 7,
}
#: Shell modules: they wire the domains together and are imported by none of them.
SHELL = "shell"
LONGEST_MODULE = 700


def domain_of(module: str) -> str:
    for domain in sorted(FLOORS, key=len, reverse=True):
        if module == domain or module.startswith(domain + "."):
            return domain
    return SHELL


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The project modules that ``path`` imports, anywhere in it (a function's own
    imports count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in ("games", "tracker")}


def project_modules() -> dict[str, Path]:
    paths = [*ROOT.glob("tracker/**/*.py"), *ROOT.glob("games/**/*.py")]
    return {module_name(path): path for path in paths if "migrations" not in path.parts}


MODULES = project_modules()


def existing(name: str) -> str | None:
    """The module that an imported name is, or belongs to."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def graph() -> dict[str, set[str]]:
    return {module: {found for name in imports_of(path) if (found := existing(name))
                     and found != module}
            for module, path in MODULES.items()}


def test_imports_run_downward():
    upward = []
    for module, imported in graph().items():
        domain = domain_of(module)
        for target in imported:
            target_domain = domain_of(target)
            if domain == SHELL or target_domain == domain:
                continue
            if target_domain == SHELL or FLOORS[target_domain] >= FLOORS[domain]:
                upward.append(f"{module} -> {target}")
    assert sorted(upward) == []


def test_no_import_circle():
    """Among the app's modules; the engine's registry and its series module name each other,
    one of them inside a function, and are left as they are."""
    edges = {module: {target for target in imported if target.startswith("tracker")}
             for module, imported in graph().items() if module.startswith("tracker")}
    circles: list[list[str]] = []

    def visit(module: str, path: list[str], on_path: set[str], done: set[str]) -> None:
        for target in sorted(edges.get(module, ())):
            # A package's __init__ naming its own modules is not a circle.
            if target in on_path and not target.startswith(module + "."):
                circles.append([*path[path.index(target):], target])
            elif target not in done and target not in on_path:
                on_path.add(target)
                visit(target, [*path, target], on_path, done)
                on_path.discard(target)
        done.add(module)

    done: set[str] = set()
    for module in sorted(edges):
        if module not in done:
            visit(module, [module], {module}, done)
    assert circles == []


def test_views_import_no_other_domains_views():
    crossing = [f"{module} -> {target}" for module, imported in graph().items()
                if ".views" in module for target in imported
                if ".views" in target and domain_of(target) != domain_of(module)]
    assert crossing == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_readable(module):
    assert len(MODULES[module].read_text().splitlines()) <= LONGEST_MODULE


def test_each_domain_is_a_folder_with_its_tests_beside_it():
    for domain in FLOORS:
        if domain == "games":
            continue
        folder = domain.replace(".", "/")
        assert (ROOT / folder / "__init__.py").exists()
        assert list((ROOT / "tests" / folder).glob("test_*.py")), f"tests/{folder}"


#: Signs of SQL written by hand or of Django's internals.
BY_HAND = ("connection.cursor(", ".raw(", "RawSQL(", ".extra(", "_prefetched_objects_cache",
           "ModelState", "executemany(")


def test_sql_is_written_by_hand_in_one_module_with_its_measured_need():
    by_hand = sorted(module for module, path in MODULES.items()
                     if module.startswith("tracker") and "migrations" not in module
                     and any(sign in path.read_text() for sign in BY_HAND))
    assert by_hand == ["tracker.table.following"]
    assert "Built through the ORM" in MODULES["tracker.table.following"].read_text()
