// Package report holds conform's generic report writers: a JUnit XML model
// and writer, a Markdown table writer, a terminal check for progress output,
// and the JSON Schemas of conform's own machine-readable reports. It knows
// nothing about session logs or adapters, so that check-log and the adapter
// runner share one implementation of each format.
package report
