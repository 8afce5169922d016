/**
 * Every string of the chat panel. Each is translatable with `docusaurus write-translations`
 * (ids `bookrag.*` in i18n/<locale>/code.json), and an author can replace any of them with the
 * plugin's `strings` option (key = the id without `bookrag.`).
 */
import { useMemo } from 'react';
import { translate } from '@docusaurus/Translate';
import { useBookragConfig } from '../../client/config';
function defaults() {
    return {
        title: translate({ id: 'bookrag.title', message: 'Ask the book', description: 'Title of the chat panel' }),
        greeting: translate({
            id: 'bookrag.greeting',
            message: 'Ask me anything about this book. Every answer cites the sections it comes from.',
            description: 'First message of an empty chat',
        }),
        suggestedHeading: translate({ id: 'bookrag.suggestedHeading', message: 'Try asking', description: 'Above the suggested questions' }),
        close: translate({ id: 'bookrag.close', message: 'Close chat', description: 'Close button of the chat panel' }),
        newChat: translate({ id: 'bookrag.newChat', message: 'New chat', description: 'Button that starts a new conversation' }),
        inputLabel: translate({ id: 'bookrag.inputLabel', message: 'Your question', description: 'Label of the question box' }),
        placeholder: translate({ id: 'bookrag.placeholder', message: 'Ask a question about the book…', description: 'Placeholder of the question box' }),
        placeholderSelection: translate({
            id: 'bookrag.placeholderSelection',
            message: 'Ask about the selected text (or just press Enter)…',
            description: 'Placeholder of the question box when a selection is attached',
        }),
        send: translate({ id: 'bookrag.send', message: 'Send', description: 'Send button' }),
        stop: translate({ id: 'bookrag.stop', message: 'Stop', description: 'Button that stops a streaming answer' }),
        selectionLabel: translate({ id: 'bookrag.selectionLabel', message: 'About this selection', description: 'Label of the quoted selection' }),
        removeSelection: translate({ id: 'bookrag.removeSelection', message: 'Remove the selection', description: 'Button that detaches the selection' }),
        defaultSelectionQuestion: translate({
            id: 'bookrag.defaultSelectionQuestion',
            message: 'Explain this passage.',
            description: 'Question sent when the reader asks about a selection without typing one',
        }),
        you: translate({ id: 'bookrag.you', message: 'You', description: 'Author of the reader’s messages' }),
        tutor: translate({ id: 'bookrag.tutor', message: 'Book tutor', description: 'Author of the answers' }),
        sources: translate({ id: 'bookrag.sources', message: 'Sources', description: 'Heading of an answer’s source list' }),
        citation: translate({ id: 'bookrag.citation', message: 'Source {n}: {title}', description: 'Accessible name of a citation link' }),
        writing: translate({ id: 'bookrag.writing', message: 'Looking in the book…', description: 'Shown while waiting for the first words' }),
        copy: translate({ id: 'bookrag.copy', message: 'Copy answer', description: 'Copies an answer' }),
        copied: translate({ id: 'bookrag.copied', message: 'Copied', description: 'After copying' }),
        helpful: translate({ id: 'bookrag.helpful', message: 'Helpful answer', description: 'Thumbs-up button' }),
        notHelpful: translate({ id: 'bookrag.notHelpful', message: 'Not helpful', description: 'Thumbs-down button' }),
        feedbackThanks: translate({ id: 'bookrag.feedbackThanks', message: 'Thanks for your feedback.', description: 'After a vote' }),
        feedbackFailed: translate({ id: 'bookrag.feedbackFailed', message: 'Your vote could not be saved.', description: 'Vote failed' }),
        stopped: translate({ id: 'bookrag.stopped', message: 'Stopped: this answer is incomplete.', description: 'A stopped answer' }),
        refused: translate({
            id: 'bookrag.refused',
            message: 'Not covered by the book: the tutor only answers from the book.',
            description: 'Badge of a refusal',
        }),
        extractive: translate({
            id: 'bookrag.extractive',
            message: 'Quoted from the book, without a language model.',
            description: 'Badge of an answer composed from the book’s sentences',
        }),
        degraded: translate({
            id: 'bookrag.degraded',
            message: 'The language model failed, so this answer was put together from the book’s text.',
            description: 'Badge of an answer given after the model failed',
        }),
        sessionExpired: translate({
            id: 'bookrag.sessionExpired',
            message: 'The earlier conversation had expired, so this answer does not build on it.',
            description: 'Note when the server restarted the session window',
        }),
        sessionRestarted: translate({
            id: 'bookrag.sessionRestarted',
            message: 'The earlier conversation was no longer on the server, so a new one was started.',
            description: 'Note when the stored session was unknown to the server',
        }),
        errorUnreachable: translate({
            id: 'bookrag.errorUnreachable',
            message: 'Can’t reach the book tutor. Check your connection, then retry.',
            description: 'Server unreachable',
        }),
        errorRateLimited: translate({
            id: 'bookrag.errorRateLimited',
            message: 'Too many questions in a short time. You can ask again in {seconds} s.',
            description: 'Rate limited; {seconds} counts down',
        }),
        errorRateLimitedOver: translate({
            id: 'bookrag.errorRateLimitedOver',
            message: 'Too many questions in a short time. You can ask again now.',
            description: 'Rate limit over',
        }),
        errorTooLong: translate({
            id: 'bookrag.errorTooLong',
            message: 'This question or selection is too long for the tutor ({detail}). Shorten it and try again.',
            description: 'Request too long',
        }),
        errorInvalid: translate({ id: 'bookrag.errorInvalid', message: 'The question could not be sent: {detail}', description: 'Bad request' }),
        errorUnavailable: translate({
            id: 'bookrag.errorUnavailable',
            message: 'The book tutor is temporarily unavailable. Try again in {seconds} s.',
            description: 'Server unavailable',
        }),
        errorNotIngested: translate({
            id: 'bookrag.errorNotIngested',
            message: 'The book has not been indexed yet, so there is nothing to answer from. Try again later.',
            description: 'Nothing ingested',
        }),
        errorInterrupted: translate({
            id: 'bookrag.errorInterrupted',
            message: 'The answer was interrupted ({detail}). It may be incomplete.',
            description: 'Stream failed midway',
        }),
        errorServer: translate({ id: 'bookrag.errorServer', message: 'The book tutor had a problem ({detail}).', description: 'Other server errors' }),
        retry: translate({ id: 'bookrag.retry', message: 'Retry', description: 'Retries a failed question' }),
        charactersLeft: translate({ id: 'bookrag.charactersLeft', message: '{count} characters too many', description: 'Question over the length limit' }),
        hint: translate({ id: 'bookrag.hint', message: 'Answers come only from this book. Esc closes the chat.', description: 'Footer hint' }),
    };
}
export function useStrings() {
    const { strings, title, greeting } = useBookragConfig();
    return useMemo(() => ({ ...defaults(), ...(title ? { title } : {}), ...(greeting ? { greeting } : {}), ...strings }), [strings, title, greeting]);
}
