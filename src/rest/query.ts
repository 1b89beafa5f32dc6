/** Raw query-string handling for D6: every value of every name, so duplicates and nested forms can be refused. */

export type RawQuery = Map<string, string[]>;

/** Parses `a=1&a=2&b[c]=3` into names -> values, decoding leniently (a bad escape stays as typed). */
export function parseRawQuery(url: string): RawQuery {
  const question = url.indexOf('?');
  const out: RawQuery = new Map();
  if (question < 0) return out;
  for (const pair of url.slice(question + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeLenient(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeLenient(pair.slice(eq + 1));
    const list = out.get(name);
    if (list) list.push(value);
    else out.set(name, [value]);
  }
  return out;
}

function decodeLenient(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The names under which a parameter was given in nested form, e.g. `type[x]` or `type[]` for `type`. */
export function nestedForms(query: RawQuery, name: string): string[] {
  return [...query.keys()].filter((key) => key.startsWith(`${name}[`));
}
