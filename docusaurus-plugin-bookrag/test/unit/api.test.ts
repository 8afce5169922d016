import {describe, expect, it} from 'vitest';
import {ChatError, endpoint, errorFromResponse, handleEvent, parseRetryAfter, type Closing} from '../../src/client/api';

function collect() {
  const texts: string[] = [];
  const closings: Closing[] = [];
  return {texts, closings, handlers: {onText: (t: string) => texts.push(t), onClosing: (c: Closing) => closings.push(c)}};
}

describe('LangServe stream events', () => {
  it('answer pieces, then the closing chunk, then end', () => {
    const {texts, closings, handlers} = collect();
    expect(handleEvent({event: 'metadata', data: '{"run_id": "x"}'}, handlers)).toBe(false);
    handleEvent({event: 'data', data: '{"answer": "QoS [1]"}'}, handlers);
    handleEvent({event: 'data', data: '{"answer": " done."}'}, handlers);
    const closing = {sources: [{n: 1, title: 'T', url: 'http://x/docs/a#b'}], session_id: 's', session_token: 't', message_id: 4, refused: false, extractive: true, degraded: false};
    handleEvent({event: 'data', data: JSON.stringify(closing)}, handlers);
    expect(handleEvent({event: 'end', data: ''}, handlers)).toBe(true);
    expect(texts).toEqual(['QoS [1]', ' done.']);
    expect(closings).toEqual([closing]);
  });
  it('an error event mid-stream interrupts the answer', () => {
    const {handlers} = collect();
    expect(() => handleEvent({event: 'error', data: '{"status_code": 500, "message": "Internal Server Error"}'}, handlers)).toThrowError(ChatError);
    try {
      handleEvent({event: 'error', data: '{"status_code": 500, "message": "boom"}'}, handlers);
    } catch (error) {
      expect((error as ChatError).kind).toBe('interrupted');
      expect((error as ChatError).status).toBe(500);
    }
  });
});

describe('errors before the stream', () => {
  const body = (code: string, message: string) => ({error: {code, message}});
  it('429 says when to retry', () => {
    const error = errorFromResponse(429, body('rate_limited', 'slow down'), '7');
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfter).toBe(7);
  });
  it('413 and length 422s are "too long"; other 422s name the field', () => {
    expect(errorFromResponse(413, body('payload_too_large', 'too big'), null).kind).toBe('too_long');
    expect(errorFromResponse(422, body('invalid_request', 'input.question: String should have at most 2000 characters'), null).kind).toBe('too_long');
    expect(errorFromResponse(422, body('invalid_request', 'input.session_id: not a uuid'), null).kind).toBe('invalid');
  });
  it('404 unknown_session asks for a new session; 503 tells outage from nothing ingested', () => {
    expect(errorFromResponse(404, body('unknown_session', 'no session'), null).kind).toBe('unknown_session');
    expect(errorFromResponse(503, body('not_ingested', 'ingest first'), null).kind).toBe('not_ingested');
    const down = errorFromResponse(503, body('database_unavailable', 'down'), '5');
    expect([down.kind, down.retryAfter]).toEqual(['unavailable', 5]);
  });
  it('a body that is not JSON still gives an error', () => {
    expect(errorFromResponse(502, null, null).kind).toBe('unavailable');
    expect(errorFromResponse(500, 'oops', null).message).toBe('HTTP 500');
  });
  it('Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(parseRetryAfter(null)).toBeUndefined();
  });
  it('endpoints join with one slash', () => {
    expect(endpoint('http://h:8000/', '/chat/stream')).toBe('http://h:8000/chat/stream');
    expect(endpoint('/api', 'feedback')).toBe('/api/feedback');
  });
});
