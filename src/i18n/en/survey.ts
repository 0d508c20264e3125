/** The satisfaction survey page of the mail's link (issue 39, item 3), in English. */
const surveyMessages = {
  survey: {
    title: 'Satisfaction survey',
    question: 'How satisfied are you with how we resolved this ticket?',
    ticket: 'Ticket %{reference}: %{description}',
    rating: 'Your rating',
    good: 'Good',
    neutral: 'Neutral',
    bad: 'Bad',
    out_of_five: '%{rating} out of 5',
    comment: 'Comment (optional)',
    send: 'Send rating',
    thanks: 'Thank you for your rating.',
    answered: 'This survey has already been answered: thank you.',
    your_rating: 'Your rating: %{rating}',
    invalid: 'This survey link is invalid or has expired.',
    choose: 'Choose a rating.',
    opt_out: "Don't send me these surveys any more",
    opted_out: 'You will get no more satisfaction surveys.',
    opt_out_failed: 'Your choice could not be saved: try again.',
    loading: 'Loading the survey…',
  },
};

export default surveyMessages;
