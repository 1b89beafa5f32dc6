/**
 * A page's answers (src/dashboard/page-answers.ts): one lookup by the method and, for a POST, the
 * form's `action`; an action the page does not name is the unknown-action refusal, after the
 * page's own refusal of any POST; a page with one form answers whatever its `action` says.
 */
import { DomainError } from '../../../src/domain/errors.js';
import type { DashboardAnswer, DashboardPage, DashboardRequest } from '../../../src/dashboard/page.js';
import { preparePage } from '../../../src/dashboard/page-answers.js';

const request = {} as DashboardRequest;
const form = (fields: Record<string, string> = {}) => new URLSearchParams(fields);
const answering = (to: string) => async (): Promise<DashboardAnswer> => ({ redirect: to });

const shown = { path: 'shown', signedIn: false, get: answering('get') } satisfies DashboardPage;
const withActions: DashboardPage = { ...shown, path: 'actions', actions: { create: answering('create'), revoke: answering('revoke') } };
const oneForm: DashboardPage = { ...shown, path: 'one-form', post: answering('the form') };

/** The refusal an answer throws, or undefined when it answers. */
async function refusalOf(answer: Promise<DashboardAnswer>): Promise<DomainError | undefined> {
  return answer.then(
    () => undefined,
    (error: unknown) => error as DomainError,
  );
}

describe('the methods a page takes', () => {
  it('a page without forms takes GET and HEAD only; one with forms takes POST too', () => {
    const read = preparePage(shown);
    expect([read.allow, read.takes('GET'), read.takes('HEAD'), read.takes('POST'), read.takes('PUT'), read.takes(undefined)]).toEqual([
      'GET, HEAD',
      true,
      true,
      false,
      false,
      false,
    ]);
    for (const page of [withActions, oneForm]) {
      const written = preparePage(page);
      expect([written.allow, written.takes('POST'), written.takes('DELETE')]).toEqual(['GET, HEAD, POST', true, false]);
    }
  });
});

describe('one lookup by method and action', () => {
  it('GET and HEAD answer with the page, whatever the query says', async () => {
    const page = preparePage(withActions);
    expect(await page.answerTo('GET', form())(request)).toEqual({ redirect: 'get' });
    expect(await page.answerTo('HEAD', form())(request)).toEqual({ redirect: 'get' });
  });

  it("a POST runs the action its form's `action` names", async () => {
    const page = preparePage(withActions);
    expect(await page.answerTo('POST', form({ action: 'create' }))(request)).toEqual({ redirect: 'create' });
    expect(await page.answerTo('POST', form({ action: 'revoke', id: 'k1' }))(request)).toEqual({ redirect: 'revoke' });
  });

  it('an action the page does not name, or none, is refused as unknown (400), even one named like an Object method', async () => {
    const page = preparePage(withActions);
    for (const fields of [
      { action: 'drop' },
      {} as Record<string, string>,
      { action: '' },
      { action: 'constructor' },
      { action: '__proto__' },
      { action: 'toString' },
    ]) {
      const refused = await refusalOf(page.answerTo('POST', form(fields))(request));
      expect(refused).toBeInstanceOf(DomainError);
      expect([refused?.status, refused?.message]).toEqual([400, 'unknown action']);
    }
  });

  it('a page with one form answers a POST with it, whatever its `action` says', async () => {
    const page = preparePage(oneForm);
    for (const fields of [{} as Record<string, string>, { action: 'create' }, { action: 'anything' }]) {
      expect(await page.answerTo('POST', form(fields))(request)).toEqual({ redirect: 'the form' });
    }
  });
});

describe("the page's refusal of any POST", () => {
  const refusing: DashboardPage = {
    ...withActions,
    async assertMayPost() {
      throw new DomainError('forbidden', 'this plan has no such forms');
    },
  };

  it('comes before a named action and before the refusal of an unknown one', async () => {
    const page = preparePage(refusing);
    for (const fields of [{ action: 'create' }, { action: 'drop' }]) {
      const refused = await refusalOf(page.answerTo('POST', form(fields))(request));
      expect([refused?.status, refused?.message]).toEqual([403, 'this plan has no such forms']);
    }
  });

  it('does not guard a GET', async () => {
    expect(await preparePage(refusing).answerTo('GET', form())(request)).toEqual({ redirect: 'get' });
  });

  it('lets an action run once it passes', async () => {
    const checked: string[] = [];
    const page = preparePage({
      ...withActions,
      async assertMayPost() {
        checked.push('checked');
      },
    });
    expect(await page.answerTo('POST', form({ action: 'revoke' }))(request)).toEqual({ redirect: 'revoke' });
    expect(checked).toEqual(['checked']);
  });
});
