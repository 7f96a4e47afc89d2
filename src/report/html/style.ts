/** The page's stylesheet, inlined: the report opens from disk with no network. System fonts only. */
export const STYLE = `
:root{--ok:#2f9e5b;--fail:#d64545;--info:#e0a030;--ink:#1d2330;--muted:#6b7280;--line:#e5e7eb;--bg:#f7f8fa;--card:#fff;
--freeze:#8e6bd6;--failover:#2f7fd8;--network:#e8913a;--flush:#16a2a0;--kill:#a0306e;--command:#c9a227;--other:#8a8a8a;--lease:#5b6b86;--clock:#0e7490}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:1400px;margin:0 auto;padding:16px 20px 48px}
a{color:#2456a6}
h2{font-size:17px;margin:28px 0 8px}
h3{font-size:14px;margin:14px 0 6px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.muted{color:var(--muted)} .small{font-size:11px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:10px 0}
header.verdict{border-radius:10px;padding:16px 20px;color:#fff;display:grid;grid-template-columns:auto 1fr;gap:6px 24px;align-items:center}
header.verdict.passed{background:linear-gradient(135deg,#23824b,#2f9e5b)}
header.verdict.failed{background:linear-gradient(135deg,#b3302f,#d64545)}
header.verdict h1{margin:0;font-size:34px;letter-spacing:.04em}
header.verdict .sub{opacity:.9}
header.verdict dl{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:4px 22px;margin:6px 0 0}
header.verdict dt{font-size:11px;text-transform:uppercase;opacity:.8}
header.verdict dd{margin:0;font-weight:600}
.cmd{grid-column:1/-1;display:flex;gap:8px;align-items:center;margin-top:6px}
.cmd code{background:rgba(0,0,0,.25);padding:5px 9px;border-radius:6px;color:#fff;word-break:break-all}
.cmd button{border:1px solid rgba(255,255,255,.6);background:transparent;color:#fff;border-radius:6px;padding:3px 9px;cursor:pointer}
.nav{margin:0 0 10px;font-size:13px}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}
.chip{border-radius:999px;padding:2px 10px;font-size:12.5px;border:1px solid var(--line);background:#fff}
.chip.ok{border-color:#b7e1c6;background:#eef9f2;color:#1d6b3e}
.chip.bad{border-color:#f1b9b9;background:#fdf0f0;color:#9b2323;font-weight:600}
.violation{border-left:4px solid var(--fail)}
.violation .inv{font-weight:700;color:var(--fail)}
.violation .sentence{font-size:15px;margin:6px 0}
.wlist{margin:6px 0;padding-left:18px}
.wref{cursor:pointer} .wref:hover{background:#fff4d6}
.timeline{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 0 8px 8px;position:relative}
.tl-controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;padding:0 8px 6px 0;font-size:13px}
.tl-controls button{min-width:28px;border:1px solid var(--line);background:#fff;border-radius:5px;cursor:pointer}
.legend{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center;margin-left:auto;color:var(--muted);font-size:12px}
.sw{display:inline-block;width:14px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.sw.ok{background:var(--ok)} .sw.fail{background:var(--fail)} .sw.info{background:var(--info);opacity:.6}
.sw.witnesssw{background:#fff;outline:2px solid #111} .sw.unexpl{background:#fff;outline:2px dashed var(--fail)}
.sw.lease{background:var(--lease)} .sw.expiry{background:repeating-linear-gradient(45deg,var(--lease) 0 2px,transparent 2px 5px)}
.tl-body{display:flex}
.tl-labels{flex:none}
.tl-labels text{text-anchor:end;font-size:12px;fill:var(--ink)}
.tl-scroll{overflow-x:auto;flex:1}
.tl-plot{display:block}
.tl-plot .lanebg{fill:#f6f7f9}
.tl-plot .gapband{fill:#eef0f3}
.tl-plot .gaplabel{font-size:10px;fill:var(--muted)}
.tick line{stroke:#eceef1} .tick text{font-size:10px;fill:var(--muted);text-anchor:middle}
.off{display:none}
rect.op{stroke:none}
rect.op.ok{fill:var(--ok)} rect.op.fail{fill:var(--fail)} rect.op.info{fill:var(--info)}
rect.tail{fill:#f5e2b3;pointer-events:none}
.mark{font-size:9px;fill:#111;pointer-events:none} .mark.unexplained-mark{fill:var(--fail)} .mark.twice-mark{font-size:10px;font-weight:700;fill:#b45309}
span.twice-mark{font-weight:700;color:#b45309} rect.op.twice{stroke:#b45309;stroke-width:2px;stroke-dasharray:2 2;vector-effect:non-scaling-stroke} .mark.race-mark{font-size:10px;fill:#7c3aed} span.race-mark{color:#7c3aed}
rect.op.witness{stroke:#111;stroke-width:2.5px;vector-effect:non-scaling-stroke}
rect.op.unexplained{stroke:var(--fail);stroke-width:2.5px;stroke-dasharray:4 2;vector-effect:non-scaling-stroke}
rect.dim{opacity:.1}
rect.op.hl{stroke:#ffb000;stroke-width:4px;vector-effect:non-scaling-stroke}
rect.band{opacity:.13;pointer-events:none}
rect.fault{opacity:.85}
rect.fault.lossy{stroke:#111;stroke-dasharray:3 2;vector-effect:non-scaling-stroke}
.f-freeze{fill:var(--freeze)} .f-failover{fill:var(--failover)} .f-network{fill:var(--network)} .f-flush{fill:var(--flush)} .f-kill{fill:var(--kill)} .f-command{fill:var(--command)} .f-clock{fill:var(--clock)} .f-other{fill:var(--other)}
.sw.band.f-freeze{background:var(--freeze)} .sw.band.f-failover{background:var(--failover)} .sw.band.f-network{background:var(--network)}
.sw.band.f-flush{background:var(--flush)} .sw.band.f-kill{background:var(--kill)} .sw.band.f-command{background:var(--command)} .sw.band.f-clock{background:var(--clock)} .sw.band.f-other{background:var(--other)}
rect.lease{fill:var(--lease);opacity:.75} rect.expiry{fill:url(#hatch)} .hatch{fill:var(--lease);opacity:.55}
.oplabel{font-size:10px;fill:#374151;pointer-events:none} .oplabel.witness-label{font-weight:700;fill:#111}
.faultlabel,.leaselabel{font-size:10px;fill:#fff;pointer-events:none;font-weight:600}
.leaselabel{fill:#fff}
.clockbg{fill:#f3f8fa} .clock-zero{stroke:#9aa3ad;stroke-dasharray:3 3;vector-effect:non-scaling-stroke}
.clock-line{fill:none;stroke:var(--clock);stroke-width:1.6px;vector-effect:non-scaling-stroke;stroke-linejoin:miter}
.clock-line.client{stroke-width:2px} .clock-line.unreached{stroke-dasharray:5 3;opacity:.6}
.clock-area{fill:var(--clock);opacity:.12;stroke:none} rect.clock-hit{fill:transparent}
.clocklabel{font-size:10px;fill:#0b4f63;font-weight:600;pointer-events:none} .clockvalue{font-size:10px;fill:#0b4f63;pointer-events:none}
.tl-labels text.clock-name{fill:#0b4f63;font-weight:600}
.sw.clocksw{height:3px;background:var(--clock);vertical-align:3px}
header.verdict .clocks-block{grid-column:1/-1} ul.clocks{margin:2px 0 0;padding-left:18px;font-size:12.5px} .clocks-head{font-size:11px;text-transform:uppercase;opacity:.8;margin-top:6px}
.tip{position:fixed;z-index:10;max-width:520px;background:#111827;color:#f9fafb;border-radius:6px;padding:7px 10px;font-size:12px;pointer-events:none;white-space:pre-wrap;box-shadow:0 4px 14px rgba(0,0,0,.25)}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top;font-size:13px}
th{font-size:12px;color:var(--muted);font-weight:600;background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.zero{color:#c4c8cf}
tr.gap td:first-child{color:var(--fail)}
.verdict-ok{color:var(--ok);font-weight:600} .verdict-illegal{color:var(--fail);font-weight:700} .verdict-unknown{color:#b7791f;font-weight:700} .verdict-replication-loss{color:#7c3aed;font-weight:600} .verdict-clock-loss{color:#0e7490;font-weight:600}
ol.prefix{margin:4px 0;padding-left:22px;font-size:12.5px}
.metrics{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:10px}
.metrics .card{margin:0} .metric.wide{grid-column:1/-1}
.series-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:8px 18px;margin-top:6px}
.big{font-size:26px;font-weight:700}
.alert{color:var(--fail);font-weight:700}
.hist .bar{fill:#5b8def} .hist .axis{font-size:9.5px;fill:var(--muted)} .hist .alertline{stroke:var(--fail);stroke-width:1.5;stroke-dasharray:4 3}
.hist .alerttext{font-size:10px;fill:var(--fail)} .hist .q{stroke:#111;stroke-width:1.5} .hist .qtext{font-size:10px;fill:#111}
.mem{height:12px;background:#eef0f3;border-radius:6px;overflow:hidden} .mem>span{display:block;height:100%;background:#5b8def}
`;
