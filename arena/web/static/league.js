// The league page of a running league: its progress and standings, updated from the
// server's events without a reload. Bot-controlled text is only ever set as textContent.
(function () {
  'use strict';
  var progress = document.getElementById('progress');
  var url = progress && progress.dataset.events;
  if (!url || !window.EventSource) { return; }
  var base = url.replace(/\/events$/, '');
  var pct = function (v) { return (100 * v).toFixed(1) + '%'; };
  var elo = function (v) { return v === null || v === undefined ? '-' : (v >= 0 ? '+' : '') + v.toFixed(0); };
  var ci = function (v) { return v === null || v === undefined ? '' : '\u00b1 ' + v.toFixed(0); };
  var source = new EventSource(url);
  source.addEventListener('progress', function (e) {
    var ev = JSON.parse(e.data);
    progress.textContent = ev.status.line;
    progress.dataset.done = String(ev.status.done);
    if (!ev.status.running && ev.status.total > 0) { source.close(); }
    if (!ev.standings) { return; }
    var body = document.querySelector('#standings tbody');
    var rows = ev.standings.standings.map(function (s) {
      var tr = document.createElement('tr');
      var faults = 0;
      Object.keys(s.faults || {}).forEach(function (k) { faults += s.faults[k]; });
      var cells = [String(s.rank), null, elo(s.elo), ci(s.ci95), elo(s.game_elo), String(s.games), String(s.deals),
        s.games ? pct(s.points_share) : '-', s.wins + '-' + s.draws + '-' + s.losses, pct(s.nat_rate), pct(s.pit_rate), String(faults)];
      cells.forEach(function (text, i) {
        var td = document.createElement('td');
        if (i === 1) {
          td.className = 'name';
          var a = document.createElement('a');
          a.href = base + '/bot/' + encodeURIComponent(s.bot);
          a.textContent = s.bot;
          td.appendChild(a);
          if (s.author) {
            var by = document.createElement('span');
            by.className = 'author';
            by.textContent = s.author;
            td.append(' ', by);
          }
        } else {
          td.textContent = text;
        }
        tr.appendChild(td);
      });
      return tr;
    });
    body.replaceChildren.apply(body, rows);
  });
}());
