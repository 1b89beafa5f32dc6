/** The morning briefs, one a date: the first writer wins. */
import type { Kysely } from 'kysely';
import type { MorningBrief } from '../domain/prediction.js';
import type { Database } from './tables.js';

export function createMorningBriefs(db: Kysely<Database>) {
  return {
    async getBrief(date: string): Promise<MorningBrief | undefined> {
      const row = await db.selectFrom('morning_briefs').selectAll().where('date', '=', date).executeTakeFirst();
      return row && { date: row.date, brief: row.brief, writer: row.writer, generatedAt: row.generated_at };
    },

    /** Stores the date's brief unless one exists, and returns the one stored: the first writer wins. */
    async saveBriefOnce(brief: MorningBrief): Promise<MorningBrief> {
      await db
        .insertInto('morning_briefs')
        .values({ date: brief.date, brief: brief.brief, writer: brief.writer, generated_at: brief.generatedAt })
        .onConflict((oc) => oc.column('date').doNothing())
        .execute();
      const stored = await this.getBrief(brief.date);
      if (!stored) throw new Error(`morning brief of ${brief.date} vanished after it was saved`);
      return stored;
    },
  };
}
