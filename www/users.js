// How the page shows a user to a person: by name when the trace names its users (an sacct log
// numbers them for SWF and keeps the names in its header notes: the engine's
// Session.user_names, sent with the trace's facts), else by number. A person may pick users by
// name too (the options' user lists, the heatmap's): text that reads as a whole number is a
// number, anything else a name, kept as typed in the link and turned into its number here (the
// engine does the same for --users). Ids stay numbers elsewhere (data-user attributes, the
// CSVs' user_id).

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

/** "alice, 3 bob" -> ['alice', 3, 'bob']: whole numbers as numbers, other words as names;
 * repeats dropped. (+ 0: user -0 is user 0, what a link written again says.) */
export function parseUserList(text) {
  const out = [];
  for (const t of String(text).split(/[\s,;]+/)) {
    if (!t) continue;
    const v = /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) + 0 : t;
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** Users as picked (numbers or names) -> {ids: their numbers, unknown: the names the loaded
 * trace does not give}. */
export function userIds(list) {
  const ids = [], unknown = [];
  for (const u of list) {
    if (typeof u === 'number') ids.push(u);
    else if (names.includes(u)) ids.push(names.indexOf(u) + 1);
    else unknown.push(u);
  }
  return { ids: [...new Set(ids)], unknown };
}
