/** API tokens (issue 38, item 3), in English. */
const apiTokensMessages = {
  api_tokens: {
    new: 'New API token',
    create: 'Create token',
    token: 'Your new API token',
    shown_once:
      'Copy this token now and keep it somewhere safe. You will not see it again: only its start is kept.',
    copy: 'Copy token',
    copied: 'Token copied.',
    copy_failed: 'The token could not be copied: select it and copy it yourself.',
    done: 'Done',
    scopes_help: 'What the token may do: your own permissions, as many as it needs.',
    expiry_help: 'A token expires within %{count} days.',
    owner_me: 'Myself',
    owner_help: 'Or a service account: an account for an integration, not a person.',
    revoke: 'Revoke',
    revoke_confirm: 'Revoke the token "%{name}"? Integrations that use it stop working at once.',
    revoked: 'Token revoked.',
    revoked_since: 'Revoked on %{date}',
  },
};

export default apiTokensMessages;
