// The card picker (templates/_cards.html): one pad writes tapped cards into one or more text fields.
// A suit stays chosen until another is tapped, so a hand sorted by suit is one tap a card and one a suit; the
// joker is one tap. The text fields stay the truth: typed cards (the reader's letters, the notation, suit
// symbols) show as chips too. Everything the pad knows about cards and the pack comes from the page
// (data-notation, data-facts), which the server renders from the engine. Without JavaScript the pad stays
// hidden and the fields take typed cards.
(function () {
  "use strict";
  var all = [];  // every target of every picker on the page: the pack is shared within a form

  function Picker(root) {
    var nt = JSON.parse(root.dataset.notation);
    var facts = JSON.parse(root.dataset.facts);
    var ranksOnly = !!root.dataset.ranksOnly;
    var pad = root.querySelector(".pad");
    var status = root.querySelector(".pick-status");
    var suit = "S";
    var targets = [];
    root.querySelectorAll(".pick-target").forEach(function (el) {
      var t = { el: el, box: el.querySelector("input, textarea"), chips: el.querySelector(".chips"),
                count: el.querySelector(".pick-count"), to: el.querySelector(".pick-to"),
                melds: !!el.dataset.melds, single: !!el.dataset.single, natural: !!el.dataset.natural,
                picker: null };
      targets.push(t);
      all.push(t);
    });
    // The target a refusal points at comes first; a target whose field is disabled (the end-of-hand form's
    // player who went out) is never chosen.
    function usable(t) { return !t.box.matches(":disabled"); }
    var active = targets.filter(function (t) { return t.el.classList.contains("has-error"); })[0] ||
      targets.filter(usable)[0] || targets[0];
    var self = { targets: targets, draw: drawAll, setFacts: function (f) {
      facts = f;
      root.dataset.facts = JSON.stringify(f);
      drawAll();
      var c = over();
      say(c ? fullText(c) : "");
    } };
    targets.forEach(function (t) { t.picker = self; });

    // ------------------------------------------------------------------ reading and writing cards
    function parse(token) {
      var t = token.trim().toUpperCase();
      if (nt.jokers.indexOf(t) >= 0) { return { rank: "JK", suit: null, raw: token }; }
      if (t.length >= 2) {
        var s = nt.suits[t.slice(-1)], r = nt.ranks[t.slice(0, -1)];
        if (s && r) { return { rank: r, suit: s, raw: token }; }
      }
      if (ranksOnly && nt.ranks[t]) { return { rank: nt.ranks[t], suit: null, raw: token }; }
      return { rank: null, suit: null, raw: token };  // not a card: shown as typed, for the server to name
    }
    function show(c) {
      if (c.rank === null) { return c.raw; }
      if (c.rank === "JK") { return nt.joker; }
      return nt.show[c.rank] + (c.suit ? nt.symbols[c.suit] : "");
    }
    function key(c) {
      if (c.rank === "JK") { return "JK"; }
      return ranksOnly ? c.rank : c.rank + c.suit;
    }
    function lines(t) {  // the melds (one per line, or split by |), each a list of cards
      var text = t.box.value;
      var parts = t.melds ? text.split(/\n|\|/) : [text];
      return parts.map(function (line) {
        return line.split(/[\s,;]+/).filter(function (x) { return x; }).map(parse);
      });
    }
    function write(t, groups) {
      t.box.value = groups.map(function (g) { return g.map(function (c) { return c.raw; }).join(" "); })
        .join(t.melds ? "\n" : " ");
      changed(t);
    }
    function order(c) {
      if (c.rank === null) { return 9999; }
      if (c.rank === "JK") { return 999; }
      var r = nt.order.indexOf(c.rank);
      return ranksOnly || !c.suit ? r : nt.suitOrder.indexOf(c.suit) * 100 + r;
    }

    // ------------------------------------------------------------------ the pack
    function counted(c, form) {  // copies of this card in every field of this form that is not disabled
      var n = 0, k = key(c);
      all.forEach(function (t) {
        if (t.box.form !== form || t.box.disabled || t.box.matches(":disabled")) { return; }
        t.picker.cardsOf(t).forEach(function (x) { if (x.rank !== null && key(x) === k) { n += 1; } });
      });
      return n;
    }
    function limit(c) { return c.rank === "JK" ? facts.jokers : facts.copies; }
    function fullText(c) {
      if (c.rank === "JK") { return facts.noJoker; }
      return facts.full.replace("{card}", ranksOnly ? nt.show[c.rank] : show(c));
    }
    self.cardsOf = function (t) { return [].concat.apply([], lines(t)); };

    // ------------------------------------------------------------------ drawing
    function draw(t) {
      var groups = lines(t);
      t.chips.textContent = "";
      var n = 0;
      groups.forEach(function (g, gi) {
        var row = t.chips;
        if (t.melds && (groups.length > 1 || gi > 0)) {
          row = document.createElement("div");
          row.className = "meld-chips";
          var no = document.createElement("span");
          no.className = "meld-no";
          no.textContent = String(gi + 1);
          row.appendChild(no);
          t.chips.appendChild(row);
        }
        g.map(function (c, i) { return { c: c, i: i }; })
          .sort(function (a, b) { return order(a.c) - order(b.c) || a.i - b.i; })
          .forEach(function (x) {
            var b = document.createElement("button");
            b.type = "button";
            b.className = "chip" + (x.c.suit && nt.red.indexOf(x.c.suit) >= 0 ? " suit-red" : "") +
              (x.c.rank === null ? " bad" : "");
            b.textContent = show(x.c);
            b.setAttribute("aria-label", facts.remove.replace("{card}", show(x.c)));
            b.addEventListener("click", function () {
              var now = lines(t);
              now[gi].splice(x.i, 1);
              write(t, now);
              say("");
            });
            row.appendChild(b);
            n += 1;
          });
      });
      if (t.count) {
        t.count.textContent = t.single ? "" : facts.count.replace("{n}", String(n));
        t.count.classList.toggle("over", !!facts.size && n > facts.size + 1);
      }
      t.box.dataset.cards = self.cardsOf(t).map(function (c) { return c.rank === null ? "?" : c.rank; }).join(" ");
    }
    function drawAll() {
      targets.forEach(draw);
      targets.forEach(function (t) {
        t.el.classList.toggle("active", t === active && targets.length > 1);
        if (t.to) {
          t.to.setAttribute("aria-pressed", t === active ? "true" : "false");
          t.to.disabled = !usable(t);
        }
      });
      var joker = root.querySelector(".pick-joker");
      if (joker && active.natural) { joker.setAttribute("aria-disabled", "true"); }
      else if (joker) { joker.removeAttribute("aria-disabled"); }
      root.querySelectorAll(".pick-suit").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.suit === suit ? "true" : "false");
      });
      root.querySelectorAll(".pick-rank .mark").forEach(function (m) {
        m.textContent = nt.symbols[suit];
        m.classList.toggle("suit-red", nt.red.indexOf(suit) >= 0);
      });
    }
    function changed(t) {
      draw(t);
      t.box.dispatchEvent(new CustomEvent("cards-changed", { bubbles: true }));
    }
    function say(text) {
      status.textContent = text;
      status.classList.toggle("refused", !!text);
    }
    function over() {  // typed cards beyond the pack: said, as a tap beyond it is refused
      var form = active.box.form, found = null;
      targets.forEach(function (t) {
        self.cardsOf(t).forEach(function (c) {
          if (c.rank === null || found) { return; }
          if (counted(c, form) > limit(c)) { found = c; }
        });
      });
      return found;
    }

    // ------------------------------------------------------------------ tapping
    function add(c) {
      var t = active;
      if (c.rank === "JK" && t.natural) { return; }
      var form = t.box.form;
      var replaced = t.single ? self.cardsOf(t) : [];
      var already = counted(c, form) - replaced.filter(function (x) { return x.rank !== null && key(x) === key(c); }).length;
      if (already >= limit(c)) {
        say(fullText(c));
        return;
      }
      c.raw = show(c);
      if (t.single) {
        t.box.value = c.raw;
      } else {
        var text = t.box.value.replace(/[ \t]+$/, "");
        var sep = text === "" || /\n$/.test(text) ? "" : " ";
        t.box.value = text + sep + c.raw;
      }
      say("");
      changed(t);
    }
    pad.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) { return; }
      if (b.classList.contains("pick-suit")) {
        suit = b.dataset.suit;
        drawAll();
      } else if (b.classList.contains("pick-rank")) {
        add({ rank: b.dataset.rank, suit: ranksOnly ? null : suit });
      } else if (b.classList.contains("pick-joker")) {
        add({ rank: "JK", suit: null });
      } else if (b.classList.contains("pick-newline")) {
        var m = targets.filter(function (t) { return t.melds; })[0];
        if (m && m.box.value.trim() !== "" && !/\n\s*$/.test(m.box.value)) {
          m.box.value = m.box.value.replace(/\s+$/, "") + "\n";
          changed(m);
        }
      } else if (b.classList.contains("pick-undo")) {
        var groups = lines(active);
        while (groups.length > 1 && groups[groups.length - 1].length === 0) { groups.pop(); }
        var last = groups[groups.length - 1];
        if (last.length) { last.pop(); }
        write(active, groups);
        say("");
      }
    });
    // Point the pad at a target (by its field's name); if the one chosen can no longer take cards, at the
    // next one that can. Used by the end-of-hand form when who went out changes (static/scoreboard.js).
    self.choose = function (name) {
      var t = targets.filter(function (x) { return x.box.name === name; })[0];
      if (t && usable(t)) { active = t; }
      if (!usable(active)) {
        var i = targets.indexOf(active);
        active = targets.slice(i + 1).concat(targets.slice(0, i)).filter(usable)[0] || active;
      }
      drawAll();
    };
    targets.forEach(function (t) {
      function choose() { if (active !== t && usable(t)) { active = t; drawAll(); } }
      if (t.to) {
        t.to.hidden = false;
        t.to.addEventListener("click", function () {
          choose();
          var top = t.to.getBoundingClientRect().top;  // (a block folding above moved it up: kept on screen)
          if (top < 0) { window.scrollBy(0, top - 8); }
        });
      }
      t.box.addEventListener("focus", choose);
      t.box.addEventListener("input", function () {
        changed(t);
        var c = over();
        say(c ? fullText(c) : "");
      });
    });
    pad.hidden = false;
    root.rummyPicker = self;
    root.classList.add("ready");
    drawAll();
    var c0 = over();
    if (c0) { say(fullText(c0)); }
    return self;
  }

  var pickers = [];
  function init() {
    all = all.filter(function (t) { return document.body.contains(t.box); });
    pickers = pickers.filter(function (p) { return document.body.contains(p.targets[0].box); });
    document.querySelectorAll(".picker:not(.ready)").forEach(function (root) { pickers.push(Picker(root)); });
    pickers.forEach(function (p) { p.draw(); });
  }
  init();
  document.body.addEventListener("htmx:afterSettle", init);
  document.addEventListener("rummy:swapped", init);  // (a game page's end-of-hand form drawn again: scoreboard.js)

  // The referee's table settings change the pack and the deal: ask the server for the picker's new facts.
  document.querySelectorAll("form[data-picker-facts]").forEach(function (form) {
    form.addEventListener("change", function (e) {
      var name = e.target.name || "";
      if (!/^(family|hand|players|variants|opt_)/.test(name)) { return; }
      var params = new URLSearchParams();
      new FormData(form).forEach(function (v, k) {
        if (/^(family|hand|players|variants|opt_)/.test(k)) { params.append(k, v); }
      });
      fetch(form.dataset.pickerFacts + "&" + params.toString(), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (f) {
          if (!f) { return; }
          pickers.forEach(function (p) { if (p.targets[0].box.form === form) { p.setFacts(f); } });
        })
        .catch(function () { /* the server rules on the cards as sent anyway */ });
    });
  });
})();
