// Package scholar writes the files of Google Scholar's library links
// program for a customer: institutional_links.xml, which names the
// library, its link resolver and its holdings files, and the holdings
// files themselves, which list the library's electronic serials with
// their ISSNs and coverage. Google fetches them from the library's site
// and shows a link to the library's resolver beside the articles the
// library holds. The package is pure: it turns holdings into bytes and
// leaves reading the store and keeping the files to its callers.
//
// # The formats
//
// Google publishes no specification beyond two annotated sample files,
// http://scholar.google.com/scholar/institutional_holdings.xml and
// http://scholar.google.com/scholar/institutional_links.xml, and their
// DTDs (institutional_holdings.dtd, institutional_links.dtd, same place).
// What this package writes follows the holdings sample (read from
// scholar.google.co.uk/intl/en/scholar/institutional_holdings.xml) and
// three open exporters that Google accepted: CUFTS's Google Scholar build
// script (the open link resolver of the Simon Fraser University Library),
// CDS Invenio's bibexport method googlescholar_openurl and ISTEX's
// istex-exchange (buildInstitutionalLinks).
//
// A holdings file is UTF-8 ("encoding must be UTF-8"), at most 1 MB
// before compression ("The limit is 1MB per holdings file but there may be
// several files"):
//
//	<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
//	<!DOCTYPE institutional_holdings PUBLIC "-//GOOGLE//Institutional Holdings 1.0//EN"
//	  "http://scholar.google.com/scholar/institutional_holdings.dtd">
//	<institutional_holdings>
//	  <item type="electronic">          electronic (the default) or print
//	    <title>…</title>                 REQUIRED: the journal's title
//	    <issn>0123-4567</issn>           OPTIONAL, strongly recommended; CUFTS repeats it, one per ISSN
//	    <isbn>…</isbn>                   OPTIONAL (books)
//	    <coverage>                       REPEATED; none means "from volume 1 and still receiving"
//	      <from>                         OPTIONAL; default "from volume 1"
//	        <year>1971</year>            REQUIRED in <from>
//	        <month>1</month>             OPTIONAL; default 1
//	        <volume>12</volume>          OPTIONAL
//	        <issue>1</issue>             OPTIONAL
//	      </from>
//	      <to>…</to>                     OPTIONAL, as <from>; default "still receiving"
//	      <embargo>                      OPTIONAL (CUFTS writes it last in <coverage>)
//	        <days_not_available>365</days_not_available>
//	      </embargo>
//	    </coverage>
//	  </item>
//	</institutional_holdings>
//
// institutional_links.xml, one per institution:
//
//	<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
//	<!DOCTYPE institutional_links PUBLIC "-//GOOGLE//Institutional Links 1.0//EN"
//	  "http://scholar.google.com/scholar/institutional_links.dtd">
//	<institutional_links>
//	  <institution>…</institution>                 the library's name, as patrons pick it in Scholar's settings
//	  <keywords>…</keywords>                       OPTIONAL: more words that find it there
//	  <contact>…</contact>                         OPTIONAL here: an address for Google's questions
//	  <electronic_link_label>…</electronic_link_label>  the link's text beside a held article
//	  <openurl_base>…</openurl_base>               the resolver's address; Google appends an OpenURL 0.1 query
//	  <openurl_option>doi</openurl_option>         REPEATED: extra keys the resolver reads (doi, pmid,
//	                                               journal-title, book-title)
//	  <electronic_holdings>
//	    <url>…/holdings-1.xml</url>                REPEATED: the addresses of the holdings files
//	  </electronic_holdings>
//	</institutional_links>
//
// Google reads OpenURL 0.1 (genre, issn, title, atitle, volume, issue,
// spage, date, id=doi:…), which kbserver's resolver reads.
//
// # What kbserver writes
//
// One item per resource of the customer's collection (selected, not
// hidden, in a package it selected and did not hide) whose title is a
// serial (kb.IsSerialType) and has an ISSN: Scholar matches a library's
// holdings on ISSNs, so an item without one links nothing and is left
// out. A title held in several packages gives several items, one per
// subscription, as the sample's items are. The ISSNs are the title's
// valid ones (kb.NormalizeISSN: an ISSN whose check digit fails names no
// journal), print first, then online.
//
// The coverage is the resource's effective coverage as the resolver
// applies it (kb.EffectiveCoverage: the customer's custom coverage
// replaces the managed one), one <coverage> per range: the year and month
// of its first and last dates (a range without an end has no <to>:
// still receiving). Where the effective coverage is the managed one, the
// volume and issue of the KBART row that gave a range are added
// (kb.IssueRangesFromKBART); custom coverage has dates only. Day
// precision is lost: a range that begins on 15 March is written as from
// March, as the format has no day.
//
// The embargo is the effective embargo (kb.EffectiveEmbargo: the
// customer's custom embargo replaces the managed one) as
// days_not_available in every <coverage> of the item: days as they are, a
// week as 7 days, a month as 30 days and a year as 365 days (the format
// counts in days only; CUFTS counts a month as 30 days too). A resource
// without coverage but with an embargo gets one <coverage> with only the
// embargo.
//
// Files are split at MaxFileBytes, holdings-1.xml, holdings-2.xml, … in
// the order the holdings come; an empty collection still has one (empty)
// holdings file, so that institutional_links.xml always names one.
package scholar
