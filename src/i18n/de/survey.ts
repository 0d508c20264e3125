import type surveyEn from '../en/survey.ts';

/** Die Seite der Zufriedenheitsumfrage hinter dem Link der E-Mail (Issue 39, Punkt 3), auf Deutsch. */
const surveyMessages: typeof surveyEn = {
  survey: {
    title: 'Zufriedenheitsumfrage',
    question: 'Wie zufrieden sind Sie damit, wie wir dieses Ticket gelöst haben?',
    ticket: 'Ticket %{reference}: %{description}',
    rating: 'Ihre Bewertung',
    good: 'Gut',
    neutral: 'Neutral',
    bad: 'Schlecht',
    out_of_five: '%{rating} von 5',
    comment: 'Kommentar (optional)',
    send: 'Bewertung senden',
    thanks: 'Vielen Dank für Ihre Bewertung.',
    answered: 'Diese Umfrage wurde bereits beantwortet: vielen Dank.',
    your_rating: 'Ihre Bewertung: %{rating}',
    invalid: 'Dieser Link zur Zufriedenheitsumfrage ist ungültig oder abgelaufen.',
    choose: 'Wählen Sie eine Bewertung.',
    opt_out: 'Keine Umfragen mehr senden',
    opted_out: 'Sie erhalten keine Zufriedenheitsumfragen mehr.',
    opt_out_failed: 'Ihre Wahl konnte nicht gespeichert werden: versuchen Sie es erneut.',
    loading: 'Die Umfrage wird geladen…',
  },
};

export default surveyMessages;
