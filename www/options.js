// Generated from src/options.rs (the options schema) by `schedlab options --js`; a test
// checks that it is up to date. Do not edit: change the schema and regenerate.
export const OPTIONS = [
  {"key":"procs","flag":"--procs","form":"opt-procs","field":"procs","group":"input","kind":{"type":"whole","min":1,"max":1000000000},"default":"","label":"machine size (processors)"},
  {"key":"estimate","flag":"--estimate","form":"opt-estimate","field":"estimate","group":"input","kind":{"type":"choice","values":["requested","runtime","ignore"]},"default":"requested","label":"planning estimate"},
  {"key":"kill","flag":"--no-kill","form":"opt-kill","field":"kill","group":"input","kind":{"type":"bool"},"default":"1","label":"kill jobs at their requested time"},
  {"key":"seed","flag":"--seed","form":"opt-seed","field":"","group":"run","kind":{"type":"whole","min":0,"max":9007199254740991},"default":"1","label":"seed"},
  {"key":"wide","flag":"--wide","form":"opt-wide","field":"wide","group":"input","kind":{"type":"choice","values":["skip","clamp"]},"default":"skip","label":"jobs wider than the machine"},
  {"key":"origin","flag":"--origin","form":"opt-origin","field":"origin","group":"input","kind":{"type":"choice","values":["first","trace"]},"default":"first","label":"time origin"},
  {"key":"status","flag":"--skip-status","form":"opt-status","field":"skip_status","group":"input","kind":{"type":"list"},"default":"","label":"skip jobs with these statuses"},
  {"key":"zero","flag":"--skip-zero-runtime","form":"opt-zero","field":"skip_zero_runtime","group":"input","kind":{"type":"bool"},"default":"0","label":"skip jobs with zero runtime"},
  {"key":"strict","flag":"--strict","form":"opt-strict","field":"strict","group":"input","kind":{"type":"bool"},"default":"0","label":"strict reading"},
  {"key":"offline","flag":"--offline","form":"opt-offline","field":"offline","group":"input","kind":{"type":"bool"},"default":"0","label":"offline (every job submitted at 0)"},
  {"key":"bound","flag":"--bsld-bound","form":"opt-bound","field":"metrics.bsld_bound","group":"metrics","kind":{"type":"number","min":0.0,"open":false},"default":"10","label":"bounded slowdown bound (s)"},
  {"key":"nodes","flag":"--nodes","form":"opt-nodes","field":"nodes","group":"nodes","kind":{"type":"bool"},"default":"0","label":"node model"},
  {"key":"cores","flag":"--cores","form":"opt-cores","field":"nodes.cores","group":"nodes","kind":{"type":"whole","min":1,"max":1048576},"default":"4","label":"cores per node"},
  {"key":"bw","flag":"--bandwidth","form":"opt-bw","field":"nodes.bandwidth","group":"nodes","kind":{"type":"number","min":0.0,"open":true},"default":"6000","label":"bandwidth per node (MB/s)"},
  {"key":"mix","flag":"--mix","form":"opt-mix","field":"nodes.mix","group":"nodes","kind":{"type":"choice","values":["high","med","low"]},"default":"high","label":"memory-pressure mix"},
  {"key":"high","flag":"","form":"opt-high","field":"nodes.high","group":"nodes","kind":{"type":"number","min":0.0,"open":false},"default":"2000","label":"high demand per process (MB/s)"},
  {"key":"bwfield","flag":"--bandwidth-field","form":"opt-bwfield","field":"nodes.field","group":"nodes","kind":{"type":"whole","min":1,"max":1000},"default":"","label":"SWF field with MB/s per process"},
  {"key":"warmup","flag":"--warmup","form":"opt-warmup","field":"metrics.window.warmup","group":"metrics","kind":{"type":"whole","min":0,"max":9007199254740991},"default":"0","label":"node-model figures: warm-up jobs"},
  {"key":"measured","flag":"--measured","form":"opt-measured","field":"metrics.window.measured","group":"metrics","kind":{"type":"whole","min":1,"max":9007199254740991},"default":"","label":"node-model figures: measured jobs"},
];
