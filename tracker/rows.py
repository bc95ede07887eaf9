"""Plain SELECT, INSERT and UPDATE statements for what every saved Kniffel cell does.

A tap on a tablet's sheet reads and locks the play with its players, then writes the
cell, the play, one player's totals and the play's history. Compiling each of those
statements through the ORM costs several times what the database takes to run it, and
made up most of a save's time. These functions read and write the same rows from the
models' own field definitions: column names, defaults, ``auto_now`` and the conversion of
values (JSON, dates, booleans) stay the ORM's; only the query compiler is left out.
They send no signals, as ``QuerySet.update`` sends none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field, Model
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)

Where = Mapping[str, Any]


def columns(model: type[Model], alias: str, names: Sequence[str] | None = None) -> str:
    """The select list of ``model``'s fields (all of its columns, or the fields ``names``)
    in the table called ``alias``, in the order :func:`row_from_db` reads them."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in fields_of(model, names))


def row_from_db(model: type[M], values: Sequence[Any], names: Sequence[str] | None = None
                ) -> M:
    """An instance of ``model`` from the values of a row selected with :func:`columns`,
    converted as the ORM converts them; fields not in ``names`` are deferred."""
    database = connections[DEFAULT_DB_ALIAS]
    attnames, columns_and_converters = reading(model, None if names is None else tuple(names),
                                               database.ops)
    converted = []
    for (column, converters), value in zip(columns_and_converters, values, strict=True):
        for converter in converters:
            value = converter(value, column, database)
        converted.append(value)
    return model.from_db(database.alias, attnames, converted)


def fields_of(model: type[Model], names: Sequence[str] | None) -> list[Field]:
    if names is None:
        return list(model._meta.concrete_fields)
    return [model._meta.get_field(name) for name in names]


@lru_cache(maxsize=64)
def reading(model: type[Model], names: tuple[str, ...] | None,
            operations: BaseDatabaseOperations
            ) -> tuple[list[str], list[tuple[Col, list[Callable[..., Any]]]]]:
    """The attribute names of the fields ``names`` (None: all columns), and each one's
    column and the functions that turn its database value into Python's, for the
    connection that ``operations`` belongs to (the backend's converters use it)."""
    fields = fields_of(model, names)
    found = []
    for field in fields:
        column = field.get_col(model._meta.db_table)
        found.append((column, [*operations.get_db_converters(column),
                               *column.get_db_converters(operations.connection)]))
    return [field.attname for field in fields], found


def insert_row(row: Model) -> None:
    """Store the new ``row`` as ``row.save(force_insert=True)`` would, and set its id."""
    meta = row._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(row, add=True), connection)
              for field in fields]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(meta.pk.column)}",
            values)
        row.pk = cursor.fetchone()[0]
    row._state.adding, row._state.db = False, connection.alias


def update_rows(model: type[Model], values: Mapping[str, Any], *, where: Where,
                increment: Iterable[str] = ()) -> int:
    """Set ``values`` (and add 1 to each field in ``increment``) in the rows of ``model``
    whose fields equal the values in ``where`` (or are among them, for a list or a tuple);
    the number of rows changed, as ``QuerySet.update`` gives it."""
    meta = model._meta
    quote = connection.ops.quote_name
    assignments, params = [], []
    for name, value in values.items():
        field = meta.get_field(name)
        assignments.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    for name in increment:
        column = quote(meta.get_field(name).column)
        assignments.append(f"{column} = {column} + 1")
    conditions, where_params = where_sql(model, where)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)}"
                       f" WHERE {conditions}", params + where_params)
        return cursor.rowcount


def where_sql(model: type[Model], where: Where) -> tuple[str, list[Any]]:
    """The conditions of a WHERE clause for ``where`` (see :func:`update_rows`)."""
    meta = model._meta
    quote = connection.ops.quote_name
    conditions, params = [], []
    for name, wanted in where.items():
        field = meta.get_field(name)
        choices = list(wanted) if isinstance(wanted, (list, tuple)) else [wanted]
        prepared = [field.get_db_prep_value(choice, connection) for choice in choices]
        if not prepared:
            conditions.append("1 = 0")
        elif len(prepared) == 1:
            conditions.append(f"{quote(field.column)} = %s")
        else:
            conditions.append(f"{quote(field.column)} IN ({', '.join(['%s'] * len(prepared))})")
        params.extend(prepared)
    return " AND ".join(conditions), params
