// Sort a claims table by a click on a column head; filter its rows by text and by status.
document.querySelectorAll("table.claims").forEach(function (table) {
  var body = table.tBodies[0];
  var controls = table.previousElementSibling;
  var text = controls.querySelector(".claim-filter");
  var status = controls.querySelector(".status-filter");
  function filter() {
    var q = text.value.toLowerCase(), s = status.value;
    Array.from(body.rows).forEach(function (row) {
      var show = (!q || row.textContent.toLowerCase().indexOf(q) >= 0) && (!s || row.dataset.status === s);
      row.style.display = show ? "" : "none";
    });
  }
  text.addEventListener("input", filter);
  status.addEventListener("change", filter);
  table.querySelectorAll("th").forEach(function (th, col) {
    var ascending = true;
    th.addEventListener("click", function () {
      var kind = th.dataset.sort;
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
