// Shows, under the case form's "Add a judge" select, what the kind
// picked does (its option's data-doc). Without JavaScript the options'
// titles and the list "What each kind of judge does" say the same.
(function () {
  "use strict";

  function show() {
    var select = document.getElementById("add-kind");
    var doc = document.getElementById("add-kind-doc");
    if (!select || !doc) return;
    var picked = select.options[select.selectedIndex];
    doc.textContent = picked ? picked.getAttribute("data-doc") : "";
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("add-kind");
    if (!select) return;
    select.addEventListener("change", show);
    show();
  });
})();
