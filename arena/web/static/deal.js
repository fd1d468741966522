// The deal viewer: steps through the tricks of the deal on the page, one card at a time,
// with the buttons, the slider, and the keys ← → Home End. The address keeps the place
// (#card-K, or #trick-N for the end of a trick), so that every trick has a permalink.
// Bot-controlled text is only ever set as textContent.
(function () {
  'use strict';
  var viewer = document.getElementById('viewer');
  if (!viewer) { return; }
  var SUIT = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
  var el = function (id) { return document.getElementById(id); };

  fetch(viewer.dataset.api).then(function (r) { return r.json(); }).then(start);

  function symbol(card) { return card.slice(0, -1) + (SUIT[card.slice(-1)] || card.slice(-1)); }

  function dress(span) {
    var c = span.dataset.card;
    span.textContent = symbol(c);
    span.classList.add('suit-' + c.slice(-1));
  }

  function start(d) {
    document.querySelectorAll('.card[data-card]').forEach(dress);
    var plays = [];
    d.tricks.forEach(function (t, i) {
      t.plays.forEach(function (p, k) { plays.push({ seat: p.seat, card: p.card, trick: i, pos: k }); });
    });
    var trickEnd = {}; // step at the end of each trick, by trick number
    plays.forEach(function (p, i) { if (p.pos === d.tricks[p.trick].plays.length - 1) { trickEnd[p.trick + 1] = i + 1; } });
    var slider = el('slider');
    slider.max = String(plays.length);
    var step = 0;

    function side(seat) {
      if (d.players === 3) { return seat; }
      return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
    }

    function render() {
      var played = {};
      plays.slice(0, step).forEach(function (p) { played[p.card] = true; });
      document.querySelectorAll('#table .hand .card').forEach(function (c) {
        c.classList.toggle('gone', !!played[c.dataset.card]);
      });
      var trick = el('trick');
      trick.replaceChildren();
      var points = {};
      var last = step > 0 ? plays[step - 1] : null;
      if (last) {
        var t = d.tricks[last.trick];
        for (var k = 0; k <= last.pos; k++) {
          var at = document.createElement('div');
          at.className = 'at at-' + t.plays[k].seat;
          var c = document.createElement('span');
          c.className = 'card';
          c.dataset.card = t.plays[k].card;
          dress(c);
          at.appendChild(c);
          trick.appendChild(at);
        }
        if (last.pos === t.plays.length - 1) {
          var w = document.createElement('div');
          w.className = 'won';
          w.textContent = t.winner + ' wins ' + t.points + (t.roem ? ', roem ' + t.roem : '');
          trick.appendChild(w);
        }
      }
      d.tricks.forEach(function (t, i) {
        var done = trickEnd[i + 1] !== undefined && trickEnd[i + 1] <= step;
        var li = el('trick-' + (i + 1));
        if (li) {
          li.classList.toggle('done', done);
          li.classList.toggle('current', !!last && last.trick === i);
        }
        if (done) { points[side(t.winner)] = (points[side(t.winner)] || 0) + t.points + t.roem; }
      });
      var sides = d.players === 3 ? ['N', 'E', 'S'] : ['NS', 'EW'];
      el('points').textContent = 'points so far: ' + sides.map(function (s) { return s + ' ' + (points[s] || 0); }).join(', ');
      el('step').textContent = 'card ' + step + ' of ' + plays.length;
      var lc = el('last-card');
      lc.dataset.card = last ? last.seat + ' ' + last.card : '';
      lc.textContent = last ? last.seat + ' ' + symbol(last.card) : '(none yet)';
      slider.value = String(step);
      var hash = '#card-' + step;
      for (var n in trickEnd) { if (trickEnd[n] === step) { hash = '#trick-' + n; } }
      el('permalink').href = hash;
      if (location.hash !== hash) { history.replaceState(null, '', hash); }
    }

    function go(s) {
      step = Math.max(0, Math.min(plays.length, s));
      render();
    }

    function fromHash() {
      var m = /^#(card|trick)-(\d+)$/.exec(location.hash);
      if (!m) { return 0; }
      var n = parseInt(m[2], 10);
      return m[1] === 'card' ? n : (trickEnd[n] || 0);
    }

    el('first').addEventListener('click', function () { go(0); });
    el('back').addEventListener('click', function () { go(step - 1); });
    el('forward').addEventListener('click', function () { go(step + 1); });
    el('last').addEventListener('click', function () { go(plays.length); });
    slider.addEventListener('input', function () { go(parseInt(slider.value, 10)); });
    document.addEventListener('keydown', function (e) {
      if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'range') { return; }
      var to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: plays.length }[e.key];
      if (to === undefined) { return; }
      e.preventDefault();
      go(to);
    });
    window.addEventListener('hashchange', function () { go(fromHash()); });
    go(fromHash());
    viewer.dataset.ready = 'true';
  }
}());
