import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table";

interface Row {
  name: string;
  n: number;
}

const rows: Row[] = [
  { name: "a", n: 1 },
  { name: "b", n: 2 },
];
const columns: Column<Row>[] = [
  { key: "name", header: "Name", rowHeader: true, className: "mono", cell: (r) => r.name },
  {
    key: "n",
    header: createElement("span", { className: "sr-only" }, "Count"),
    cell: (r) => r.n,
    cellProps: (r) => ({ "data-n": String(r.n) }),
  },
  { key: "act", header: "Actions", sticky: true, cell: (r) => `do ${r.name}` },
];
const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, { label: "Things", columns, rows, rowKey: (r) => r.name, ...props }),
  );

describe("DataTable", () => {
  it("renders a named table in a named, focusable scroll region, on the server", () => {
    const html = render();
    const region = '<div class="table-scroll" role="region" aria-label="Things (scrolls sideways)" tabindex="0">';
    expect(html.startsWith(region)).toBe(true);
    expect(html).toContain('<table class="data" aria-label="Things">');
    expect(html).toContain('<th scope="col">Name</th><th scope="col"><span class="sr-only">Count</span></th>');
    expect(html).toContain('<th scope="col" class="sticky-actions">Actions</th>');
    const cells = '<th scope="row" class="mono">a</th><td data-n="1">1</td><td class="sticky-actions">do a</td>';
    expect(html).toContain(`<tr>${cells}</tr>`);
  });

  it("puts row attributes on the row, or on the row's own tbody with a detail row", () => {
    expect(render({ rowProps: (r) => ({ "data-name": r.name }) })).toContain('<tr data-name="b">');
    const detail = (r: Row) => r.n === 2 && `detail of ${r.name}`;
    const html = render({ rowProps: (r) => ({ "data-name": r.name }), rowDetail: detail });
    expect(html).toContain('<tbody data-name="a"><tr><th scope="row" class="mono">a</th>');
    expect(html).toContain('</tr></tbody><tbody data-name="b">');
    expect(html).toContain('<tr><td colSpan="3">detail of b</td></tr></tbody>');
    expect(html.match(/colSpan/g)).toHaveLength(1);
  });

  it("lets a cell span the cells after it, and gives the table a colgroup when a column has a col class", () => {
    const spanning: Column<Row>[] = [
      { ...columns[0]!, colClassName: "narrow" },
      { ...columns[1]!, cellProps: (r) => (r.n === 2 ? { colSpan: 2 } : {}) },
      columns[2]!,
    ];
    const html = render({ columns: spanning });
    expect(html).toContain('<colgroup><col class="narrow"/><col/><col/></colgroup><thead>');
    expect(html).toContain('<th scope="row" class="mono">b</th><td colSpan="2">2</td></tr>');
    expect(html).toContain('<td class="sticky-actions">do a</td>');
  });

  it("shows `empty` instead of a table with no rows, and can leave out its own scroll region", () => {
    expect(render({ rows: [], empty: "Nothing." })).toBe("Nothing.");
    expect(render({ scroll: false, className: "matrix" })).toMatch(/^<table class="data matrix" aria-label="Things">/);
  });
});
