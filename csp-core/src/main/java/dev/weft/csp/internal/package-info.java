/**
 * Weft's own implementation of the API in {@code dev.weft.csp}: channels, selection, the fiber's state and its
 * operations, joins, deadlock detection, dumps. Internal: no module may read it ({@code module-info} does not
 * export it), and on the class path it carries no compatibility promise; any of it may change in any release.
 * Programs use {@code dev.weft.csp}; libraries built on Weft use {@code dev.weft.csp.spi}.
 */
package dev.weft.csp.internal;
