// Open the claim a link points to; filter claims and findings by paper, verdict, kind and text; keep the
// claim counts of the headings and the contents in step with the filter. Plain JavaScript, no network.
(function () {
  "use strict";
  var bar = document.getElementById("filter");
  function barHeight() {  // anchor targets scroll to just below the sticky filter bar (CSS scroll-margin-top)
    if (bar) { document.documentElement.style.setProperty("--bar", bar.offsetHeight + "px"); }
  }
  barHeight();
  window.addEventListener("resize", barHeight);
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.classList.contains("claim")) {
      el.hidden = false;
      var d = el.querySelector("details");
      if (d) { d.open = true; }
      el.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  var form = document.getElementById("filter");
  if (!form) { return; }
  var paper = document.getElementById("f-paper");
  var verdict = document.getElementById("f-verdict");
  var kind = document.getElementById("f-kind");
  var text = document.getElementById("f-text");
  var count = document.getElementById("f-count");
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-claim]"));
  function apply() {
    var p = paper.value, v = verdict.value, k = kind.value, t = text.value.trim().toLowerCase();
    var shown = 0, total = 0;
    items.forEach(function (el) {
      var ok = (!p || el.getAttribute("data-paper") === p) &&
               (!v || el.getAttribute("data-verdict") === v) &&
               (!k || el.getAttribute("data-kind") === k) &&
               (!t || el.textContent.toLowerCase().indexOf(t) >= 0);
      el.hidden = !ok;
      if (el.classList.contains("claim")) { total += 1; if (ok) { shown += 1; } }
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-group]"), function (g) {
      g.hidden = g.querySelectorAll("[data-claim]:not([hidden])").length === 0;
    });
    count.textContent = shown + " of " + total + " claims shown";
    var filtered = !!(p || v || k || t);
    Array.prototype.forEach.call(document.querySelectorAll(".count[data-for]"), function (el) {
      var g = document.getElementById(el.getAttribute("data-for"));
      if (!g) { return; }
      var all = g.querySelectorAll("[data-claim]");
      var n = Array.prototype.filter.call(all, function (x) { return !x.hidden; }).length;
      el.textContent = filtered ? n + " of " + all.length : String(all.length);
    });
    barHeight();
  }
  [paper, verdict, kind].forEach(function (el) { el.addEventListener("change", apply); });
  text.addEventListener("input", apply);
  document.getElementById("f-reset").addEventListener("click", function () {
    paper.value = ""; verdict.value = ""; kind.value = ""; text.value = ""; apply();
  });
  apply();
})();
