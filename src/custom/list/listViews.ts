/**
 * Other lists of a resource that the server offers as calls of their own (SPEC 7: GET
 * time-registrations/open, the time registrations not invoiced yet), keyed by action name: a back-office
 * list offers a switch for each one its schema's x-actions name and the user holds the permission for;
 * switched on, the same table (filters, sort, paging) reads GET /{resource}/{action}.
 */
export interface ListView {
  /** i18n key of the switch. */
  label: string;
}

export const listViews: Record<string, ListView> = {
  open: { label: 'app.invoicing.open_only' },
};

/** The list views of a resource that the user may use, in the schema's order. */
export function allowedListViews(actions: string[], may: (action: string) => boolean): string[] {
  return actions.filter((action) => listViews[action] && may(action));
}
