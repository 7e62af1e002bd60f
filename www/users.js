// How the page shows a user to a person: by name when the trace names its users (an sacct log
// numbers them for SWF and keeps the names in its header notes: the engine's
// Session.user_names, sent with the trace's facts), else by number. Names are display only:
// ids stay numbers everywhere else (data-user attributes, the heatmap's user lists, the CSVs'
// user_id).

let names = [];

/** Takes the loaded trace's user names (`list[id - 1]`; empty or missing: numbers). */
export function setUserNames(list) {
  names = Array.isArray(list) ? list.map(String) : [];
}

/** User `id` as a person reads it: `alice`, else `3`. */
export function userName(id) {
  return names[id - 1] ?? String(id);
}

/** The names by id, for the engine's charts (their legends and row labels). */
export function userNames() {
  return names;
}
