// The card picker: tap a rank, then a suit, and the card is written into the box below in the API notation.
// Without JavaScript the picker stays hidden and the box takes typed cards.
(function () {
  "use strict";
  function setup(picker) {
    var box = document.getElementById(picker.dataset.target);
    if (!box) { return; }
    picker.hidden = false;
    var rank = null;
    function add(card) {
      var text = box.value.replace(/[ \t]+$/, "");
      var sep = text === "" || /\n$/.test(text) ? "" : " ";
      box.value = text + sep + card;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
    picker.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) { return; }
      if (b.classList.contains("pick-rank")) {
        rank = b.dataset.rank;
        picker.querySelectorAll(".pick-rank").forEach(function (x) { x.setAttribute("aria-pressed", x === b ? "true" : "false"); });
      } else if (b.classList.contains("pick-suit") && rank) {
        add(rank + b.dataset.suit);
        rank = null;
        picker.querySelectorAll(".pick-rank").forEach(function (x) { x.setAttribute("aria-pressed", "false"); });
      } else if (b.classList.contains("pick-card")) {
        add(b.dataset.card);
      } else if (b.classList.contains("pick-newline")) {
        if (box.value.trim() !== "" && !/\n$/.test(box.value)) { box.value += "\n"; }
      } else if (b.classList.contains("pick-undo")) {
        box.value = box.value.replace(/\s*\S+\s*$/, box.value.trim().indexOf("\n") >= 0 && /\n\S+\s*$/.test(box.value) ? "\n" : "").replace(/^\n$/, "");
      }
    });
  }
  document.querySelectorAll(".picker").forEach(setup);
})();
