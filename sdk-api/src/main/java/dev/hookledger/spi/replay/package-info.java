/**
 * What an adapter's {@link dev.hookledger.spi.ReplaySource} needs to call its provider's API: a
 * client with a credential, bounded retries honouring the provider's rate limits and errors that
 * never carry the credential ({@link dev.hookledger.spi.replay.ProviderApiClient}), and a factory
 * that reads its named settings with errors naming the setting
 * ({@link dev.hookledger.spi.replay.SettingsReplaySourceFactory}).
 */
package dev.hookledger.spi.replay;
