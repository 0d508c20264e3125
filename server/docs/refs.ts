/** What the OpenAPI texts of the action routes (server/docs/routes/) share: the schema type, component references, error answers. */
export type Schema = Record<string, unknown>;

/** A reference to a component of the document (openapi.ts defines them). */
export const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The error answers every call may give. */
export const ERRORS = {
  401: ref('responses', 'Unauthenticated'),
  403: ref('responses', 'Forbidden'),
  404: ref('responses', 'NotFound'),
  422: ref('responses', 'Unprocessable'),
  503: ref('responses', 'Unavailable'),
};
