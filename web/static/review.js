// Keyboard shortcuts of a queue's review page, for labelling fast: p and
// f choose pass and fail, 1 to 9 the label form's categories in order,
// n or j saves the label and goes to the next item (the next item when
// nothing is chosen), s skips to the next item, c goes to the note, Esc
// leaves it, ? shows the shortcuts. Keys typed in a field are the
// field's. Without JavaScript the same forms and links work by hand.
(function () {
  "use strict";

  function form() {
    return document.querySelector("#label form.trial-label");
  }

  function choose(value) {
    var f = form();
    if (!f) return;
    var radios = f.querySelectorAll('input[type="radio"][name="category"]');
    for (var i = 0; i < radios.length; i++) {
      if (radios[i].value === value) {
        radios[i].checked = true;
        radios[i].focus();
      }
    }
  }

  function chooseNth(n) {
    var f = form();
    if (!f) return;
    var radios = f.querySelectorAll('input[type="radio"][name="category"]');
    if (n < radios.length) {
      radios[n].checked = true;
      radios[n].focus();
    }
  }

  function skip() {
    var review = document.getElementById("review");
    if (review && review.dataset.skip) window.location.assign(review.dataset.skip);
  }

  function next() {
    var f = form();
    if (f && f.querySelector('input[name="category"]:checked')) {
      f.requestSubmit();
    } else {
      skip();
    }
  }

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && el.type !== "radio" && el.type !== "checkbox"));
  }

  document.addEventListener("keydown", function (e) {
    if (!document.getElementById("review") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    var help = document.getElementById("shortcuts");
    switch (e.key) {
      case "p": choose("pass"); break;
      case "f": choose("fail"); break;
      case "n": case "j": next(); break;
      case "s": skip(); break;
      case "c": {
        var note = form() && form().querySelector('textarea[name="comment"]');
        if (note) note.focus();
        break;
      }
      case "?": if (help) help.open = !help.open; break;
      default:
        if (e.key >= "1" && e.key <= "9") {
          chooseNth(Number(e.key) - 1);
          break;
        }
        return;
    }
    e.preventDefault();
  });
})();
