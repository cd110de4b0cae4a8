// Filters only: without JavaScript the page shows every row and cell.
(function () {
  var form = document.getElementById("filters");
  form.hidden = false;
  var failing = document.getElementById("f-failing"), area = document.getElementById("f-area"),
      col = document.getElementById("f-col"), search = document.getElementById("f-search"),
      count = document.getElementById("f-count");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.row"));
  var bodies = Array.prototype.slice.call(document.querySelectorAll("tbody[data-area]"));
  var colCells = Array.prototype.slice.call(document.querySelectorAll("[data-col]"));
  var shownCol = ""; // the cells are all shown at load
  function apply() {
    var a = area.value, c = col.value, q = search.value.trim().toUpperCase(), n = 0;
    if (c !== shownCol) { // touching every cell is the slow part of a page of many reports
      colCells.forEach(function (el) { el.hidden = c !== "" && el.getAttribute("data-col") !== c; });
      shownCol = c;
    }
    rows.forEach(function (tr) {
      var show = (a === "" || tr.getAttribute("data-area") === a) &&
        (q === "" || tr.getAttribute("data-id").toUpperCase().indexOf(q) >= 0);
      if (show && failing.checked) {
        var sel = c === "" ? 'td[data-status="failed"]' : 'td[data-status="failed"][data-col="' + c + '"]';
        show = tr.querySelector(sel) !== null;
      }
      tr.hidden = !show;
      if (show) n++;
    });
    bodies.forEach(function (b) { b.hidden = b.querySelector("tr.row:not([hidden])") === null; });
    count.textContent = n + " of " + rows.length + " requirements shown";
  }
  [failing, area, col].forEach(function (el) { el.addEventListener("change", apply); });
  search.addEventListener("input", apply);
  apply();
})();
