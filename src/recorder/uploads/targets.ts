// The two kinds of remote storage an object is sent to: an S3-compatible bucket (PutObject through the
// AWS SDK) or an HTTP endpoint (POST to its URL, or PUT to `<url>/<key>`, through undici). Either
// stores the object under its key; a failure throws with a message fit for the storage's `last_error`.
import type { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { request } from 'undici';
import type { StorageTarget } from '../remote-storages/index.js';

export interface UploadObject {
  key: string;
  contentType: string;
  size: number;
  /** A fresh body for each attempt. */
  body(): Readable | Buffer;
  deviceId: string;
  kind: 'segment' | 'snapshot';
  startDate: string;
  endDate: string;
}

export interface UploadTarget {
  put(object: UploadObject, signal: AbortSignal): Promise<void>;
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;
/** A storage that stops reading or answering for this long fails the attempt. */
const IDLE_TIMEOUT_MS = 60_000;

const quiet = () => {};
const SILENT = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };

class S3Target implements UploadTarget {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(storage: StorageTarget) {
    const c = storage.config;
    this.bucket = String(c.bucket);
    this.client = new S3Client({
      endpoint: storage.url,
      region: c.region || 'us-east-1',
      forcePathStyle: c.path_style === true,
      credentials: { accessKeyId: String(c.access_key_id ?? ''), secretAccessKey: String(c.secret_access_key ?? '') },
      // Checksums only where S3 requires them: many S3-compatible servers reject the SDK's newer default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The queue retries, with its own back-off.
      maxAttempts: 1,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: IDLE_TIMEOUT_MS },
      // Failures are reported by the uploader (the SDK would otherwise print some to the console).
      logger: SILENT,
    });
  }

  async put(o: UploadObject, signal: AbortSignal): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: o.key,
          Body: o.body(),
          ContentLength: o.size,
          ContentType: o.contentType,
          Metadata: { 'device-id': o.deviceId, kind: o.kind, 'start-date': o.startDate, 'end-date': o.endDate },
        }),
        { abortSignal: signal },
      );
    } catch (err) {
      const e = err as Error & { $metadata?: { httpStatusCode?: number }; code?: string };
      const status = e.$metadata?.httpStatusCode;
      throw new Error(`S3 ${status ? `HTTP ${status} ` : ''}${e.name}: ${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}

class HttpTarget implements UploadTarget {
  constructor(private readonly storage: StorageTarget) {}

  async put(o: UploadObject, signal: AbortSignal): Promise<void> {
    const method = this.storage.config.method === 'PUT' ? 'PUT' : 'POST';
    const url = new URL(this.storage.url);
    if (method === 'PUT') url.pathname = `${url.pathname.replace(/\/+$/, '')}/${o.key}`;
    const headers: Record<string, string> = {
      ...((this.storage.config.headers as Record<string, string> | undefined) ?? {}),
      'content-type': o.contentType,
      'content-length': String(o.size),
      // The same key on every attempt: a receiver that has the object already can answer 2xx and keep one copy.
      'idempotency-key': o.key,
      'x-overlook-key': o.key,
      'x-overlook-kind': o.kind,
      'x-overlook-device-id': o.deviceId,
      'x-overlook-start-date': o.startDate,
      'x-overlook-end-date': o.endDate,
    };
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, { method, headers, body: o.body(), signal, headersTimeout: IDLE_TIMEOUT_MS, bodyTimeout: IDLE_TIMEOUT_MS });
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      const code = e.code ?? e.cause?.code;
      throw new Error(`HTTP ${method} failed: ${e.cause?.message ?? e.message}${code ? ` (${code})` : ''}`);
    }
    // The body is not needed, only read to free the connection.
    await res.body.dump().catch(() => {});
    if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${method} answered ${res.statusCode}`);
  }

  close(): void {}
}

export function uploadTarget(storage: StorageTarget): UploadTarget {
  return storage.type === 's3' ? new S3Target(storage) : new HttpTarget(storage);
}
