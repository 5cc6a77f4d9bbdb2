/**
 * The schedulers' management interface, for JMX clients (JConsole, VisualVM, {@code JMX.newMXBeanProxy}): each
 * open scheduler is registered as {@code dev.weft:type=Scheduler,name=NAME}.
 */
package dev.weft.csp.management;
