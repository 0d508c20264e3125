import type surveyEn from '../en/survey.ts';

/** De pagina van het tevredenheidsonderzoek achter de link in de mail (issue 39, onderdeel 3), in het Nederlands. */
const surveyMessages: typeof surveyEn = {
  survey: {
    title: 'Tevredenheidsonderzoek',
    question: 'Hoe tevreden ben je over hoe we dit ticket hebben opgelost?',
    ticket: 'Ticket %{reference}: %{description}',
    rating: 'Je beoordeling',
    good: 'Goed',
    neutral: 'Neutraal',
    bad: 'Slecht',
    out_of_five: '%{rating} van 5',
    comment: 'Opmerking (niet verplicht)',
    send: 'Beoordeling versturen',
    thanks: 'Bedankt voor je beoordeling.',
    answered: 'Dit onderzoek is al beantwoord: bedankt.',
    your_rating: 'Je beoordeling: %{rating}',
    invalid: 'Deze link naar het tevredenheidsonderzoek is ongeldig of verlopen.',
    choose: 'Kies een beoordeling.',
    opt_out: 'Stuur me geen onderzoeken meer',
    opted_out: 'Je krijgt geen tevredenheidsonderzoeken meer.',
    opt_out_failed: 'Je keuze kon niet worden bewaard: probeer het opnieuw.',
    loading: 'Het onderzoek wordt geladen…',
  },
};

export default surveyMessages;
