/** Macro's en de actie-editor van de automatisering (issue 37, items 1 en 3), in het Nederlands. */
const macrosMessages = {
  macros: {
    button: "Macro's",
    menu: 'Macro toepassen',
    none: "Nog geen macro's.",
    manage: "Macro's beheren",
    shortcut_hint: 'm, dan %{digit}',
    applied:
      'Macro "%{name}" toegepast op %{smart_count} ticket. |||| Macro "%{name}" toegepast op %{smart_count} tickets.',
    bulk: 'Macro…',
  },
  automation_actions: {
    action: 'Actie %{number}',
    type: 'Wat hij doet',
    types: {
      set: 'Een veld instellen',
      note: 'Een interne notitie toevoegen',
      reply: 'De klant antwoorden met een standaardantwoord',
      mail_operators: 'Medewerkers een standaardantwoord mailen',
      notify: 'Medewerkers een melding sturen',
    },
    field: 'Veld',
    value: 'Nieuwe waarde',
    body: 'Notitie',
    text: 'Tekst',
    standard_answer: 'Standaardantwoord',
    to: 'Aan',
    recipients: {
      assigned: 'De toegewezen medewerker',
      group: 'De medewerkers van de ticketgroep',
    },
  },
};

export default macrosMessages;
