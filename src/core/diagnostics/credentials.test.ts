import { describe, expect, it } from 'vitest';
import { scrubUrls, withoutCredentials } from './credentials.js';

describe('withoutCredentials', () => {
  it('drops the password and keeps the user, host, port and database', () => {
    expect(withoutCredentials('postgres://jig:s3cret@db.example:5432/jig')).toBe(
      'postgres://jig@db.example:5432/jig',
    );
    expect(withoutCredentials('postgresql://jig@localhost/jig')).toBe('postgresql://jig@localhost/jig');
  });

  it('drops query parameters that hold a credential, keeps the others', () => {
    expect(
      withoutCredentials(
        'postgres://db/jig?sslmode=require&password=p1&sslpassword=p2&application_name=jig&api_key=k',
      ),
    ).toBe('postgres://db/jig?sslmode=require&application_name=jig');
    expect(withoutCredentials('https://u:t0ken@registry.example/jig?token=abc')).toBe(
      'https://u@registry.example/jig',
    );
  });

  it('keeps nothing of text that is not a URL but its scheme', () => {
    expect(withoutCredentials('postgres://jig:pa ss@[bad/jig')).toBe('postgres://…');
    expect(withoutCredentials('not a url with s3cret')).toBe('…');
  });
});

describe('scrubUrls', () => {
  it('strips the credentials of every URL in a message and leaves the rest of it', () => {
    expect(
      scrubUrls(
        "intake.yaml:3:7: url 'https://hooks:abc123@hooks.example/x?token=t1' and postgres://a:b@db/j are wrong",
      ),
    ).toBe("intake.yaml:3:7: url 'https://hooks@hooks.example/x' and postgres://a@db/j are wrong");
    expect(scrubUrls('no url here')).toBe('no url here');
  });
});
