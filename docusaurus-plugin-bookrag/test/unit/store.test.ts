import {afterEach, describe, expect, it, vi} from 'vitest';
import {ChatStore, restore, storageKey} from '../../src/client/store';

function memoryStorage() {
  const data = new Map<string, string>();
  return {getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k), data};
}

function sse(events: Array<[string, unknown]>): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('') + 'event: end\n\n';
  return new Response(new Blob([text]).stream(), {status: 200, headers: {'Content-Type': 'text/event-stream'}});
}

const closing = (extra: object = {}) => ({sources: [{n: 1, title: 'T', url: 'http://localhost:3000/docs/a#b'}], session_id: 'c0ffee00-0000-4000-8000-000000000001', message_id: 7, refused: false, extractive: true, degraded: false, ...extra});

async function settle(store: ChatStore) {
  await vi.waitFor(() => expect(store.getState().busy).toBe(false));
}

afterEach(() => vi.unstubAllGlobals());

describe('the conversation store', () => {
  it('sends the title of the page the question was asked from, and no title when there is none', async () => {
    const fetch = vi.fn().mockImplementation(async () => sse([['data', {answer: 'Takeaways [1].'}], ['data', closing()]]));
    vi.stubGlobal('fetch', fetch);
    const store = new ChatStore({apiUrl: 'http://api'});
    store.ask('What should I take away from this lesson?', undefined, 'Voice to Action');
    await settle(store);
    expect(JSON.parse(fetch.mock.calls[0]![1].body).input.page_title).toBe('Voice to Action');
    store.ask('What is a node?');
    await settle(store);
    expect(JSON.parse(fetch.mock.calls[1]![1].body).input).not.toHaveProperty('page_title');
  });

  it('streams an answer, keeps the session and its token, and sends them with the follow-up', async () => {
    const storage = memoryStorage();
    const fetch = vi.fn()
      .mockResolvedValueOnce(sse([['metadata', {run_id: 'r'}], ['data', {answer: 'QoS '}], ['data', {answer: 'retransmits [1].'}], ['data', closing({session_token: 'secret'})]]))
      .mockResolvedValueOnce(sse([['data', {answer: 'More [1].'}], ['data', closing({message_id: 9})]]));
    vi.stubGlobal('fetch', fetch);
    const store = new ChatStore({apiUrl: 'http://api', storage});
    store.ask('Which QoS?');
    await settle(store);
    const answer = store.getState().messages[1];
    expect(answer).toMatchObject({role: 'assistant', text: 'QoS retransmits [1].', status: 'done', messageId: 7, extractive: true});
    expect(store.getState()).toMatchObject({sessionId: closing().session_id, sessionToken: 'secret'});
    store.ask('And durability?');
    await settle(store);
    const [, init] = fetch.mock.calls[1]!;
    expect(JSON.parse(init.body).input).toEqual({question: 'And durability?', session_id: closing().session_id});
    expect(init.headers.Authorization).toBe('Bearer secret');
    expect(JSON.parse(storage.data.get(storageKey('http://api'))!).sessionToken).toBe('secret');
  });

  it('names its book in every question and vote, and keeps that book\'s conversation apart', async () => {
    const storage = memoryStorage();
    const fetch = vi.fn()
      .mockResolvedValueOnce(sse([['data', {answer: 'Boil it [1].'}], ['data', closing({session_token: 'secret'})]]))
      .mockResolvedValueOnce(new Response(JSON.stringify({feedback_id: 1, message_id: 7}), {status: 201}));
    vi.stubGlobal('fetch', fetch);
    const store = new ChatStore({apiUrl: 'http://api', bookId: 'kettle-manual', storage});
    store.ask('How do I descale?');
    await settle(store);
    expect(JSON.parse(fetch.mock.calls[0]![1].body).input).toEqual({question: 'How do I descale?', book_id: 'kettle-manual'});
    await store.rate(store.getState().messages[1]!.id, 1);
    expect(JSON.parse(fetch.mock.calls[1]![1].body)).toMatchObject({book_id: 'kettle-manual', message_id: 7, score: 1});
    expect(storage.data.has(storageKey('http://api', 'kettle-manual'))).toBe(true);
    expect(storage.data.has(storageKey('http://api'))).toBe(false);
    expect(new ChatStore({apiUrl: 'http://api', storage}).getState().messages).toEqual([]);
  });

  it('starts a new session when the server no longer knows the stored one', async () => {
    const storage = memoryStorage();
    storage.setItem(storageKey('http://api'), JSON.stringify({sessionId: 'old', sessionToken: 'stale', messages: []}));
    const gone = new Response(JSON.stringify({error: {code: 'unknown_session', message: 'no session'}}), {status: 404});
    const fetch = vi.fn().mockResolvedValueOnce(gone).mockResolvedValueOnce(sse([['data', {answer: 'Hi [1]'}], ['data', closing({session_token: 'new'})]]));
    vi.stubGlobal('fetch', fetch);
    const store = new ChatStore({apiUrl: 'http://api', storage});
    store.ask('Q');
    await settle(store);
    expect(JSON.parse(fetch.mock.calls[1]![1].body).input.session_id).toBeUndefined();
    expect(store.getState().messages[1]).toMatchObject({status: 'done', sessionRestarted: true});
    expect(store.getState().sessionToken).toBe('new');
  });

  it('a rate limit is an error with a retry time; the server being down is "unreachable"', async () => {
    const limited = new Response(JSON.stringify({error: {code: 'rate_limited', message: 'slow'}}), {status: 429, headers: {'Retry-After': '9'}});
    const fetch = vi.fn().mockResolvedValueOnce(limited).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetch);
    const store = new ChatStore({apiUrl: 'http://api', storage: null});
    store.ask('Q1');
    await settle(store);
    const first = store.getState().messages[1]!;
    expect(first).toMatchObject({status: 'error', error: {kind: 'rate_limited'}});
    expect((first as {error: {retryAt: number}}).error.retryAt - Date.now()).toBeGreaterThan(7000);
    store.ask('Q2');
    await settle(store);
    expect(store.getState().messages[3]).toMatchObject({status: 'error', error: {kind: 'unreachable'}});
  });

  it('a stream that closes before its closing chunk is interrupted', async () => {
    const cut = new Response(new Blob(['event: data\ndata: {"answer": "half"}\n\n']).stream(), {status: 200});
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(cut));
    const store = new ChatStore({apiUrl: 'http://api', storage: null});
    store.ask('Q');
    await settle(store);
    expect(store.getState().messages[1]).toMatchObject({text: 'half', status: 'error', error: {kind: 'interrupted'}});
  });

  it('an answer that was streaming when the page went away is restored as stopped', () => {
    const saved = JSON.stringify({sessionId: 's', messages: [{id: 'a', role: 'assistant', replyTo: 'u', text: 'par', status: 'streaming', sources: []}]});
    expect(restore(saved).messages[0]).toMatchObject({status: 'stopped'});
    expect(restore('not json')).toEqual({messages: []});
  });
});
