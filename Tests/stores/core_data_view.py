"""An independent view of a Core Data store, for judging what deckport reads and writes.

Written from the facts in docs/app-storage.md with Python's own sqlite3, zlib and plistlib; it
shares no code with deckport. It decodes the model in Z_MODELCACHE and applies Core Data's column
rule (entities of a hierarchy in Z_ENT order, each entity's own properties by name, composite
elements in place, `Z` + upper-cased name with 1, 2, ... on a clash) to say which column holds
which property of which entity. `check_rule_against_data` proves the rule on a store's rows.
"""

import base64
import os
import plistlib
import re
import shutil
import sqlite3
import tempfile
import uuid
import zlib


def open_copy(path):
    """Opens a private copy of a store (with its -wal and -shm), never the original."""
    folder = tempfile.mkdtemp(prefix="core-data-view-")
    target = os.path.join(folder, os.path.basename(path))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            shutil.copyfile(path + suffix, target + suffix)
    return sqlite3.connect(target)


class Archive:
    """An NSKeyedArchiver archive read as a plist."""

    def __init__(self, data):
        self.root = plistlib.loads(data)
        self.objects = self.root["$objects"]

    def get(self, value):
        if isinstance(value, plistlib.UID):
            found = self.objects[value.data]
            return None if found == "$null" else found
        return value

    def class_name(self, obj):
        return self.get(obj["$class"])["$classname"] if isinstance(obj, dict) and "$class" in obj else None

    def string(self, value):
        value = self.get(value)
        if isinstance(value, dict) and "NS.string" in value:
            return self.get(value["NS.string"])
        return value

    def items(self, value):
        obj = self.get(value)
        if obj is None:
            return []
        if "NS.keys" in obj:
            return list(zip([self.string(k) for k in obj["NS.keys"]], [self.get(v) for v in obj["NS.objects"]]))
        if "values" in obj:
            values = self.get(obj["values"])
            values = values["NS.objects"] if isinstance(values, dict) else values
            mapping = self.get(obj["searchMapping"])
            keys = self.get(mapping["keys"])
            keys = keys["NS.objects"] if isinstance(keys, dict) else keys
            return [(self.string(keys[i]), self.get(v)) for i, v in enumerate(values)]
        return [(None, self.get(v)) for v in obj.get("NS.objects", [])]


class Model:
    """Entities with their own properties: ('attribute', name, type, external),
    ('composite', name, [(element, type, external)]), ('to-one'|'to-many', name, destination)."""

    def __init__(self, connection):
        blob = connection.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchone()[0]
        archive = Archive(zlib.decompress(blob, -15))
        described = {}
        for obj in archive.objects:
            if archive.class_name(obj) == "NSEntityDescription":
                described[archive.string(obj["NSEntityName"])] = obj
        self.entities = {}
        self.parent = {}
        for name, obj in described.items():
            parent = archive.get(obj.get("NSSuperentity"))
            self.parent[name] = archive.string(parent["NSEntityName"]) if parent else None
            inherited = {k for k, _ in archive.items(parent["NSProperties"])} if parent else set()
            own = []
            for key, prop in archive.items(obj["NSProperties"]):
                if key in inherited:
                    continue
                kind = archive.class_name(prop)
                flags = archive.get(prop.get("NSFlagsKey")) or 0
                if kind in ("NSAttributeDescription", "NSDerivedAttributeDescription"):
                    if archive.get(prop.get("NSIsTransient")):
                        continue
                    own.append(("attribute", key, archive.get(prop["NSAttributeType"]), bool(flags & 4)))
                elif kind == "NSCompositeAttributeDescription":
                    elements = []
                    for _, element in archive.items(prop["NSCompositeElements"]):
                        element_flags = archive.get(element.get("NSFlagsKey")) or 0
                        elements.append((archive.string(element["NSPropertyName"]), archive.get(element["NSAttributeType"]),
                                         bool(element_flags & 4)))
                    own.append(("composite", key, elements))
                elif kind == "NSRelationshipDescription":
                    destination = archive.string(prop.get("_NSDestinationEntityName"))
                    to_many = archive.get(prop.get("NSMaxCount")) != 1
                    own.append(("to-many" if to_many else "to-one", key, destination))
            self.entities[name] = own

    def lineage(self, name):
        chain = []
        while name:
            chain.insert(0, name)
            name = self.parent.get(name)
        return chain


def entity_rows(connection):
    """Z_PRIMARYKEY: name -> (number, parent number, max), entities below 16000 only."""
    rows = connection.execute("SELECT Z_NAME, Z_ENT, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").fetchall()
    return {name: (number, parent, maximum) for name, number, parent, maximum in rows}


def root_of(entities, name):
    by_number = {number: n for n, (number, _, _) in entities.items()}
    while entities[name][1]:
        name = by_number[entities[name][1]]
    return name


def columns(connection, model):
    """(entity, property path) -> column; property path is 'name' or 'composite.element'."""
    entities = entity_rows(connection)
    has_children = {n for n, (num, _, _) in entities.items() if any(p == num for _, p, _ in entities.values())}
    result = {}
    for root in {root_of(entities, n) for n in entities}:
        taken = {}
        members = sorted((n for n in entities if root_of(entities, n) == root), key=lambda n: entities[n][0])
        for name in members:
            for prop in sorted(model.entities.get(name, []), key=lambda p: p[1]):
                kind = prop[0]
                names = []
                if kind == "attribute":
                    names = [(prop[1], prop[1])]
                elif kind == "composite":
                    names = [(prop[1] + "." + element[0], element[0]) for element in prop[2]]
                elif kind == "to-one":
                    names = [(prop[1], prop[1])]
                for path, base_name in names:
                    base = "Z" + base_name.upper()
                    uses = taken.get(base, 0)
                    taken[base] = uses + 1
                    result[(name, path)] = base + (str(uses) if uses else "")
                if kind == "to-one" and prop[2] in has_children:
                    column = result[(name, prop[1])]
                    result[(name, prop[1] + "#entity")] = "Z%d_%s" % (entities[prop[2]][0], column[1:])
    return result


def check_rule_against_data(connection, model):
    """Every column the rule gives an entity exists, and holds values only in rows of that entity
    or its subentities. Returns the number of (column, entity) pairs that hold values."""
    entities = entity_rows(connection)
    assigned = columns(connection, model)
    proven = 0
    for (name, path), column in assigned.items():
        table = "Z" + root_of(entities, name).upper()
        names = [row[1] for row in connection.execute('PRAGMA table_info("%s")' % table)]
        assert column in names, "%s.%s: column %s missing from %s" % (name, path, column, table)
        family = {entities[n][0] for n in entities if name in model.lineage(n)}
        for number, count in connection.execute('SELECT Z_ENT, count("%s") FROM "%s" GROUP BY Z_ENT' % (column, table)):
            if count:
                assert number in family, "%s holds values of entity %d, not of %s" % (column, number, name)
                proven += 1
    return proven


def expected_json(value, attribute_type, external):
    """A column value as deckport's JSON file writer gives it (JSONEncoder defaults)."""
    if value is None:
        return None
    if attribute_type == 800:
        return bool(value)
    if attribute_type == 900:
        return float(value)
    if attribute_type == 1100 and isinstance(value, bytes):
        return str(uuid.UUID(bytes=value)).upper()
    if attribute_type in (500, 600):
        return float(value)
    if isinstance(value, bytes):
        if external and value[:1] == b"\x01":
            value = value[1:]
        return base64.b64encode(value).decode()
    return value


def object_graph(connection, model):
    """The store's objects and links with no key numbers in them, for comparing two stores:
    (objects, links). An object is (entity, ((property path, value), ...)) over its attribute
    columns; a link is (object, column, object) for every to-one key column, every
    Z<n><NAME> column of a to-many without inverse, and every join-table row. Rows that look
    the same count as many times as they occur."""
    entities = entity_rows(connection)
    by_number = {number: name for name, (number, _, _) in entities.items()}
    assigned = columns(connection, model)
    attributes = {}
    to_one = {}
    for name in entities:
        for entity in model.lineage(name):
            for prop in model.entities.get(entity, []):
                if prop[0] == "attribute":
                    attributes.setdefault(name, []).append((prop[1], assigned[(entity, prop[1])]))
                elif prop[0] == "composite":
                    for element in prop[2]:
                        path = prop[1] + "." + element[0]
                        attributes.setdefault(name, []).append((path, assigned[(entity, path)]))
                elif prop[0] == "to-one":
                    to_one.setdefault(name, []).append((prop[1], assigned[(entity, prop[1])]))
    identity = {}  # (root table, Z_PK) -> object
    rows = {}  # (root table, Z_PK) -> (entity, row dict)
    for name, (number, _, _) in entities.items():
        table = "Z" + root_of(entities, name).upper()
        cursor = connection.execute('SELECT * FROM "%s" WHERE Z_ENT = ?' % table, (number,))
        names = [d[0] for d in cursor.description]
        for values in cursor.fetchall():
            row = dict(zip(names, values))
            obj = (name, tuple(sorted((path, row.get(column)) for path, column in attributes.get(name, []))))
            identity[(table, row["Z_PK"])] = obj
            rows[(table, row["Z_PK"])] = (name, row)

    def target(number, key):
        table = "Z" + root_of(entities, by_number[number]).upper()
        return identity.get((table, key), ("missing", table, key))

    links = []
    for (table, key), (name, row) in rows.items():
        for relationship, column in to_one.get(name, []):
            if row.get(column) is not None:
                destination = next(p[2] for e in model.lineage(name) for p in model.entities.get(e, []) if p[1] == relationship)
                links.append((identity[(table, key)], relationship, target(entities[destination][0], row[column])))
        for column, value in row.items():
            match = re.fullmatch(r"Z(\d+)([A-Z]\w*)", column)
            if match and value is not None and int(match.group(1)) in by_number and not column.startswith("Z_"):
                links.append((target(int(match.group(1)), value), match.group(2), identity[(table, key)]))
    for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\'"):
        if table in ("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE") or not re.fullmatch(r"Z_\d+\w+", table):
            continue
        cursor = connection.execute('SELECT * FROM "%s"' % table)
        names = [d[0] for d in cursor.description]
        pair = [n for n in names if re.fullmatch(r"Z_\d+\w+", n) and not n.startswith("Z_FOK_")]
        for values in cursor.fetchall():
            row = dict(zip(names, values))
            ends = [target(int(re.match(r"Z_(\d+)", n).group(1)), row[n]) for n in pair]
            links.append((ends[0], table[2:].lstrip("0123456789"), ends[1]))
    return sorted(identity.values(), key=repr), sorted(links, key=repr)
