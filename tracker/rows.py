"""Plain SELECT, INSERT and UPDATE statements for what every saved Kniffel cell does.

A tap on a tablet's sheet reads and locks the play with its players, then writes the
cell, the play, one player's totals and the play's history. Compiling each of those
statements through the ORM costs several times what the database takes to run it, and
made up most of a save's time. These functions read and write the same rows from the
models' own field definitions: column names, defaults, ``auto_now`` and the conversion of
values (JSON, dates, booleans) stay the ORM's; only the query compiler is left out, and
each statement's text is built once per shape. They send no signals, as
``QuerySet.update`` sends none.

Why not the ORM: the same save written with its public API (``select_for_update`` with a
prefetch of the players, ``QuerySet.update`` with ``F()``, ``save(force_insert=True)``)
runs the same six statements but took 3.7 ms of CPU instead of 1.8, most of it compiling
the queries while SQLite's write lock is held; ``bench/pages.py`` then printed
``cell_save_vs_trivial: 0.14`` instead of 0.27, where a save must reach 0.25, and eight
tablets saved 220 cells a second instead of 530. So these functions serve the path every
entry takes (locking the play, writing a cell, a round, a play's status and result, one
player's totals, the history entry) and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

M = TypeVar("M", bound=Model)

Where = Mapping[str, Any]


def database() -> BaseDatabaseWrapper:
    """This thread's connection, looked up once per statement rather than per value."""
    return connections[DEFAULT_DB_ALIAS]


def fields_of(model: type[Model], names: Sequence[str] | None) -> list[Field]:
    if names is None:
        return list(model._meta.concrete_fields)
    return [model._meta.get_field(name) for name in names]


def columns(model: type[Model], alias: str, names: Sequence[str] | None = None) -> str:
    """The select list of ``model``'s fields (all of its columns, or the fields ``names``)
    in the table called ``alias``, in the order a :class:`RowReader` reads them."""
    return select_list(model, alias, None if names is None else tuple(names), database().vendor)


@lru_cache(maxsize=64)
def select_list(model: type[Model], alias: str, names: tuple[str, ...] | None, vendor: str
                ) -> str:
    quote = database().ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in fields_of(model, names))


class RowReader(Generic[M]):
    """Makes instances of ``model`` from rows selected with :func:`columns`, converting
    each value as the ORM converts it; fields not in ``names`` are deferred."""

    def __init__(self, model: type[M], names: Sequence[str] | None = None):
        self.model, self.database = model, database()
        self.attnames, self.converters = converters_of(
            model, None if names is None else tuple(names), self.database.ops)
        # Model.__init__ sets each field through its descriptor and sends pre_init and
        # post_init; for a row just read, filling the instance's dictionary is the same
        # unless the model reads its rows itself or something listens to those signals.
        self.plain = (getattr(model.from_db, "__func__", None) is Model.from_db.__func__
                      and not pre_init.has_listeners(model)
                      and not post_init.has_listeners(model))

    def __call__(self, values: Sequence[Any]) -> M:
        converted = list(values)
        for index, column, converters in self.converters:
            value = converted[index]
            for converter in converters:
                value = converter(value, column, self.database)
            converted[index] = value
        if not self.plain:
            return self.model.from_db(self.database.alias, self.attnames, converted)
        row = self.model.__new__(self.model)
        row._state = state = ModelState()
        state.adding, state.db = False, self.database.alias
        row.__dict__.update(zip(self.attnames, converted, strict=True))
        return row


@lru_cache(maxsize=64)
def converters_of(model: type[Model], names: tuple[str, ...] | None, operations: Any
                  ) -> tuple[list[str], list[tuple[int, Any, list[Callable[..., Any]]]]]:
    """The attribute names of the fields, and for each field whose database value needs
    turning into Python's its place in the row, its column and the functions that do it,
    for the connection that ``operations`` belongs to (the backend's converters use it)."""
    fields = fields_of(model, names)
    found = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        converters = [*operations.get_db_converters(column),
                      *column.get_db_converters(operations.connection)]
        if converters:
            found.append((index, column, converters))
    return [field.attname for field in fields], found


def insert_row(row: Model) -> None:
    """Store the new ``row`` as ``row.save(force_insert=True)`` would, and set its id."""
    db = database()
    sql, fields = insert_sql(type(row), db.vendor)
    values = [field.get_db_prep_save(field.pre_save(row, add=True), db) for field in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, values)
        row.pk = cursor.fetchone()[0]
    row._state.adding, row._state.db = False, db.alias


@lru_cache(maxsize=16)
def insert_sql(model: type[Model], vendor: str) -> tuple[str, list[Field]]:
    meta = model._meta
    quote = database().ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    return (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}",
            fields)


def update_rows(model: type[Model], values: Mapping[str, Any], *, where: Where,
                increment: Iterable[str] = ()) -> int:
    """Set ``values`` (and add 1 to each field in ``increment``) in the rows of ``model``
    whose fields equal the values in ``where`` (or are among them, for a list or a tuple);
    the number of rows changed, as ``QuerySet.update`` gives it."""
    db = database()
    choices = {name: list(wanted) if isinstance(wanted, (list, tuple)) else [wanted]
               for name, wanted in where.items()}
    sql, set_fields, where_fields = update_sql(
        model, tuple(values), tuple(increment),
        tuple((name, len(wanted)) for name, wanted in choices.items()), db.vendor)
    params = [field.get_db_prep_save(value, db)
              for field, value in zip(set_fields, values.values(), strict=True)]
    for field, wanted in zip(where_fields, choices.values(), strict=True):
        params.extend(field.get_db_prep_value(choice, db) for choice in wanted)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


@lru_cache(maxsize=64)
def update_sql(model: type[Model], set_names: tuple[str, ...], increment: tuple[str, ...],
               where: tuple[tuple[str, int], ...], vendor: str
               ) -> tuple[str, list[Field], list[Field]]:
    """The UPDATE statement for :func:`update_rows`: ``where`` names each field compared
    and how many values it may take (none: no row)."""
    meta = model._meta
    quote = database().ops.quote_name
    set_fields = [meta.get_field(name) for name in set_names]
    assignments = [f"{quote(field.column)} = %s" for field in set_fields]
    for name in increment:
        column = quote(meta.get_field(name).column)
        assignments.append(f"{column} = {column} + 1")
    where_fields, conditions = [], []
    for name, count in where:
        field = meta.get_field(name)
        where_fields.append(field)
        if count == 0:
            conditions.append("1 = 0")
        elif count == 1:
            conditions.append(f"{quote(field.column)} = %s")
        else:
            conditions.append(f"{quote(field.column)} IN ({', '.join(['%s'] * count)})")
    return (f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)}"
            f" WHERE {' AND '.join(conditions)}", set_fields, where_fields)
