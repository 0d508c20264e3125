/** multipart/form-data bodies for `app.inject`, written out byte by byte as a browser sends them. */
import { randomBytes } from 'node:crypto';

export interface FormFile {
  field: string;
  name: string;
  content: Buffer | string;
  type?: string;
}

/** `trailing` fields follow the files (a form cut off after its file ends in one of them). */
export function multipart(
  fields: [string, string][],
  files: FormFile[] = [],
  trailing: [string, string][] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const field = ([name, value]: [string, string]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(...fields.map(field));
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(...trailing.map(field), Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
