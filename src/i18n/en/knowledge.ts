/** The knowledge base's screens (issue 39, item 4), in English. */
const knowledgeMessages = {
  knowledge: {
    suggestions: 'These articles may answer your question',
    suggestions_hint: 'Open one to read it; if it solves your question, no ticket is needed.',
    solved: 'This solved it',
    not_solved: 'Back to my ticket',
    solved_thanks: 'Glad it helped. No ticket was created.',
    failed: 'The article could not be loaded.',
    link_button: 'Article link',
    link_title: 'Insert a link to an article',
    link_hint: 'Type a few words; choose an article to insert its link at the cursor.',
    link_search: 'Search articles',
    link_none: 'No articles found.',
    link_list: 'Articles',
    close: 'Close',
  },
};

export default knowledgeMessages;
