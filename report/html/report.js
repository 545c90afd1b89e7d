// Filter every claims table of the page by text (id, statement, why, reading, cause) and status; sort a table
// by a click on a column head (numbers by their data-value, severity by its rank).
(function () {
  var controls = document.querySelector(".controls");
  var tables = Array.from(document.querySelectorAll("table.claims"));
  if (controls) {
    var text = controls.querySelector(".claim-filter");
    var status = controls.querySelector(".status-filter");
    var filter = function () {
      var q = text.value.toLowerCase(), s = status.value;
      tables.forEach(function (table) {
        Array.from(table.tBodies[0].rows).forEach(function (row) {
          var show = (!q || row.textContent.toLowerCase().indexOf(q) >= 0) && (!s || row.dataset.status === s);
          row.style.display = show ? "" : "none";
        });
        var details = table.closest("details");
        if (q && details && Array.from(table.tBodies[0].rows).some(function (r) { return r.style.display === ""; })) {
          details.open = true;
        }
      });
    };
    text.addEventListener("input", filter);
    status.addEventListener("change", filter);
  }
  tables.forEach(function (table) {
    var body = table.tBodies[0];
    table.tHead.querySelectorAll("th").forEach(function (th, col) {
      var ascending = true;
      th.addEventListener("click", function () {
        var kind = th.dataset.sort;
        if (!kind) { return; }
        function key(row) {
          var cell = row.cells[col];
          if (kind === "number") { var v = parseFloat(cell.dataset.value); return isNaN(v) ? Infinity : v; }
          if (kind === "rank") { return parseFloat(cell.dataset.rank); }
          return cell.textContent.trim();
        }
        var rows = Array.from(body.rows);
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        ascending = !ascending;
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
