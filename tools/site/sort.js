// sort.js: click a column head of a table.sortable to sort its rows by that
// column (numbers as numbers), click again to reverse. Without JavaScript the
// tables stay readable in the order they were measured.
"use strict";
(function () {
  // A cell shown as 2^24 keeps its number in data-value.
  function cellValue(row, column) {
    const cell = row.cells[column];
    if (!cell) return "";
    return cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
  }
  function sortBy(table, column, button) {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const numeric = rows.every(function (r) {
      const v = cellValue(r, column);
      return v === "" || !isNaN(Number(v));
    });
    const descending = button.getAttribute("aria-sort") === "ascending";
    rows.sort(function (a, b) {
      const x = cellValue(a, column), y = cellValue(b, column);
      const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return descending ? -order : order;
    });
    for (const other of table.querySelectorAll("th[aria-sort]")) other.removeAttribute("aria-sort");
    for (const other of table.querySelectorAll("th button")) other.removeAttribute("aria-sort");
    button.setAttribute("aria-sort", descending ? "descending" : "ascending");
    button.parentElement.setAttribute("aria-sort", descending ? "descending" : "ascending");
    for (const row of rows) body.appendChild(row);
  }
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach(function (th, column) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = th.textContent;
      button.title = "sort by " + th.textContent;
      button.addEventListener("click", function () { sortBy(table, column, button); });
      th.textContent = "";
      th.appendChild(button);
    });
  }
})();
