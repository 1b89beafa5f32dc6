/**
 * HTML written as tagged templates: every interpolated value is escaped (html-escaper) unless it is
 * already `Html` (another template's output), so a key named `<img src=x onerror=...>` is text.
 */
import { escape as escapeHtml } from 'html-escaper';

export class Html {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

const render = (value: Value): string => {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
};

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup made here, not from input (an SVG the QR library drew). */
export const trusted = (text: string) => new Html(text);
