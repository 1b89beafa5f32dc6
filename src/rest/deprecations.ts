/**
 * Routes an operator declares deprecated (LEGACY_DEPRECATIONS, docs/migration.md): the schema that
 * reads the declaration, and what a declared route's answers carry: `Deprecation` (RFC 9745, a
 * Structured Field Date), `Sunset` (RFC 8594, an HTTP-date) and `Link` (RFC 8288). Past its sunset,
 * with LEGACY_ENFORCE_SUNSET=1, the route answers 410 (D14).
 */
import { serializeItem } from 'structured-headers';
import { z } from 'zod';
import { ApiError } from '../domain/refusal.js';

export interface Deprecation {
  deprecated: Date;
  sunset?: Date;
  /** A page for people: why, what instead, until when. */
  link?: string;
}

/** Route id -> its declaration. */
export type Deprecations = Readonly<Record<string, Deprecation>>;

const DATE_FORMATS = 'an ISO 8601 date (2026-12-31, midnight UTC) or date-time with a zone (2026-12-31T12:00:00Z, 2026-12-31T14:00:00+02:00)';

/** Whole seconds: the headers carry no more, and a 410 must not come earlier than the Sunset a client read. */
const instant = z
  .string()
  .refine((text) => z.iso.date().safeParse(text).success || z.iso.datetime({ offset: true }).safeParse(text).success, DATE_FORMATS)
  .transform((text) => new Date(Math.floor(Date.parse(text) / 1000) * 1000));

const EntrySchema = z
  .strictObject({
    deprecated: instant,
    sunset: instant.optional(),
    link: z
      .url({ protocol: /^https$/, error: 'an https:// URL' })
      .transform((url) => new URL(url).href) // percent-encoded: it cannot close the Link header's <...>
      .optional(),
  })
  .refine((entry) => !entry.sunset || entry.sunset >= entry.deprecated, { message: 'sunset is before deprecated', path: ['sunset'] });

/** The declaration's schema against the routes that exist: an unknown route id is refused first, naming the ones there are. */
export function deprecationsSchema(routeIds: readonly string[]) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((declared, ctx) => {
      for (const id of Object.keys(declared)) {
        if (!routeIds.includes(id))
          ctx.addIssue({ code: 'custom', path: [id], message: `no such route; routes are ${routeIds.map((r) => `"${r}"`).join(', ')}` });
      }
    })
    .pipe(z.record(z.string(), EntrySchema));
}

/** The headers every answer of a declared route carries, 410 included. `operationHref` is where its GraphQL operation is served. */
export function deprecationHeaders(declared: Deprecation, operationHref: string): Record<string, string> {
  const links = [
    // Where a client goes next: the operation that answers the same, to run on /graphql.
    `<${operationHref}>; rel="successor-version"; type="text/plain"`,
    ...(declared.link ? [`<${declared.link}>; rel="deprecation"; type="text/html"`] : []),
    ...(declared.link && declared.sunset ? [`<${declared.link}>; rel="sunset"; type="text/html"`] : []),
  ];
  return {
    Deprecation: serializeItem(declared.deprecated),
    ...(declared.sunset ? { Sunset: declared.sunset.toUTCString() } : {}),
    Link: links.join(', '),
  };
}

/**
 * With enforcement on, what refuses a call past the sunset: a 410 that says what to run instead
 * (`what` is the route, `GET /api/v1/brief`); undefined before the sunset. Without enforcement or a
 * sunset there is nothing to check: undefined.
 */
export function sunsetRefusal(
  declared: Deprecation | undefined,
  enforce: boolean,
  what: string,
  operation: { name: string; href: string },
): ((now: number) => ApiError | undefined) | undefined {
  const sunset = declared?.sunset;
  if (!enforce || !sunset) return undefined;
  const message =
    `${what} was retired on ${sunset.toISOString()}: run the GraphQL operation ${operation.name} (${operation.href}) on /graphql with the same key` +
    (declared.link ? `; see ${declared.link}` : '');
  return (now: number): ApiError | undefined => (now < sunset.getTime() ? undefined : new ApiError(410, message));
}
