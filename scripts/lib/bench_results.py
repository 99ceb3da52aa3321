"""The results file of a benchmark run (scripts/lib/bench.sh writes it, scripts/bench-report.py
reads it): one line a figure, tab-separated, after a header: benchmark, measurement, value,
unit, command. A measurement taken more than once (a round each) has a line each time."""

import collections

HEADER = ("benchmark", "measurement", "value", "unit", "command")


def append(path, benchmark, measurement, value, unit, command=""):
    """Adds one row; tabs and line breaks in the text become spaces."""
    cells = [str(c).replace("\t", " ").replace("\n", " ") for c in (benchmark, measurement, value, unit, command)]
    with open(path, "a", encoding="utf-8") as f:
        f.write("\t".join(cells) + "\n")


def read(path):
    """The rows of the file, as (benchmark, measurement, value, unit, command) tuples."""
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    if not lines or tuple(lines[0]) != HEADER:
        raise SystemExit(f"{path}: not a results file (its first line is not the header)")
    return [tuple(line + [""] * (5 - len(line))) for line in lines[1:] if line != [""]]


class Results:
    """The rows of one results file by measurement: `last(m)` its latest value, `all(m)` each."""

    def __init__(self, path):
        self.values = collections.defaultdict(list)
        for _, measurement, value, _, _ in read(path):
            self.values[measurement].append(value)

    def has(self, measurement):
        return measurement in self.values

    def last(self, measurement, default=""):
        values = self.values.get(measurement)
        return values[-1] if values else default

    def number(self, measurement):
        """The latest value as a float, NaN when there is none."""
        try:
            return float(self.last(measurement, "nan"))
        except ValueError:
            return float("nan")

    def all(self, measurement):
        return [float(v) for v in self.values.get(measurement, [])]
