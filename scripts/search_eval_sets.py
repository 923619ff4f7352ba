#!/usr/bin/env python3
"""Writes the hand-made search evaluation sets under tests/search_eval/.

A catalogue of service APIs (about 40 toolboxes of a dozen domains; services of one domain
offer near-duplicate tools under their own names and wordings) and three query sets over it:

- long.json: requests of 30+ words asking for two or three things, written the way a
  user asks an assistant; the gold of each part is its tool (that service's, when the
  request names the service; any service's otherwise);
- short.json: one-tool requests;
- none.json: requests no tool of the catalogue serves (the answer is no tool).

Every capability has several hand-written asks; even-numbered asks go to `dev` (the only
split used for tuning) and odd-numbered ones to `test`, so a test request never reuses a
dev phrasing. Long requests are composed from asks of one split. Deterministic (seeded).

Usage: python3 scripts/search_eval_sets.py [OUT_DIR]   (default tests/search_eval)
"""

import json
import os
import random
import sys

# domain -> (services, capabilities)
# service: (toolbox, display name used in requests, toolbox description)
# capability: (key, names, descriptions, args, asks)
#   names / descriptions: each service picks its own by position (near-duplicates)
#   args: "name:type:description" joined by ";"
DOMAINS = {
    "weather": (
        [
            ("openWeather", "OpenWeather", "Current weather, forecasts and air quality from OpenWeather."),
            ("weatherStack", "Weatherstack", "Real-time and historical weather data by Weatherstack."),
            ("accuWeather", "AccuWeather", "AccuWeather forecasts, alerts and indices."),
        ],
        [
            ("current", ["current_weather", "getCurrent", "currentConditions"],
             ["Get the current weather (temperature, humidity, wind) for a city.",
              "Returns real-time weather conditions for a location.",
              "Current conditions for a location key: temperature, sky, wind."],
             "location:string:City name or coordinates",
             ["what's the weather like in Lisbon right now",
              "is it raining in Dublin at the moment",
              "how warm is it outside in Madrid currently",
              "tell me the current temperature and wind in Oslo"]),
            ("forecast", ["forecast_daily", "getForecast", "fiveDayForecast"],
             ["Daily weather forecast for the next days for a city.",
              "Returns the weather forecast for up to 14 days.",
              "Five day forecast: highs, lows and chance of precipitation."],
             "location:string:City name;days:number?:How many days",
             ["will it rain in Paris this weekend",
              "what will the weather be in Berlin over the next five days",
              "do I need an umbrella in London tomorrow",
              "give me the outlook for Rome for the coming week"]),
            ("air", ["air_pollution", "getAirQuality", "airQualityIndex"],
             ["Air pollution data (AQI, PM2.5, ozone) for coordinates.",
              "Air quality index and pollutant levels for a location.",
              "Air quality index forecast for a location key."],
             "lat:number:Latitude;lon:number:Longitude",
             ["how polluted is the air in Delhi today",
              "is the air quality in Beijing safe for a run",
              "check the smog level near my place in Los Angeles"]),
            ("alerts", ["weather_alerts", "getAlerts", "severeWeatherAlerts"],
             ["Active severe weather warnings for a region.",
              "Government weather alerts issued for a location.",
              "Severe weather alerts (storms, floods, heat) for a location key."],
             "region:string:Region or city",
             ["are there any storm warnings for Florida right now",
              "is there a hurricane or flood warning in Houston",
              "any heat advisories issued for Phoenix today"]),
            ("history", ["weather_history", "getHistorical", "historicalConditions"],
             ["Weather observed on a past date in a city.",
              "Historical weather records for a location and date.",
              "Past 24 hours of observed conditions for a location key."],
             "location:string:City;date:string:Day in the past (YYYY-MM-DD)",
             ["what was the temperature in Chicago on March 3rd last year",
              "how much did it snow in Denver last Tuesday",
              "was it sunny in Barcelona on my birthday, June 12, 2023"]),
        ],
    ),
    "movies": (
        [
            ("tmdb", "the Movie DB", "The Movie Database (TMDB): films, TV series, people."),
            ("imdb", "IMDb", "IMDb titles, ratings and cast."),
            ("netflix", "Netflix", "Netflix catalogue: what is streaming and recommendations."),
        ],
        [
            ("search_movie", ["search_movie", "findTitle", "searchTitles"],
             ["Search for movies by title.",
              "Find films and titles matching a name.",
              "Search the streaming catalogue for a film by its title."],
             "query:string:Title to look for;year:number?:Release year",
             ["look up the movie Inception",
              "find the film called The Grand Budapest Hotel",
              "search for a movie named Arrival from 2016",
              "I'm trying to find that film Parasite"]),
            ("search_tv", ["search_tv", "findSeries", "searchShows"],
             ["Search for TV series by name.",
              "Find television series and episodes by name.",
              "Search the streaming catalogue for a TV show."],
             "query:string:Show name",
             ["find the TV series titled Dark",
              "look up the show Breaking Bad",
              "search for the series The Crown",
              "I want to find a TV show called Severance"]),
            ("similar", ["similar_movies", "moreLikeThis", "recommendations"],
             ["Recommend movies similar to a given movie.",
              "Titles similar to the given title, ranked by likeness.",
              "Personalised recommendations of titles like one you watched."],
             "id:string:The title id",
             ["suggest some movies similar to Interstellar",
              "recommend shows like Stranger Things",
              "what should I watch next if I loved Mad Men",
              "give me a few titles in the same vein as Blade Runner"]),
            ("credits", ["movie_credits", "getCast", "titleCast"],
             ["Cast and crew of a movie.",
              "Full cast and crew list of a title.",
              "Who stars in a title: actors and directors."],
             "id:string:The title id",
             ["who plays in the movie Oppenheimer",
              "list the actors and the director of Dune",
              "who was in the cast of Pulp Fiction"]),
            ("rating", ["movie_reviews", "getRatings", "titleRating"],
             ["User reviews and average rating of a movie.",
              "Ratings and votes for a title.",
              "The audience rating of a title."],
             "id:string:The title id",
             ["how well rated is Barbie",
              "is the movie Tenet any good, what are the reviews",
              "what score did audiences give to Joker"]),
            ("trending", ["trending", "getPopular", "topTen"],
             ["Movies and series trending this week.",
              "Most popular titles right now.",
              "Today's top 10 most watched titles in a country."],
             "window:string?:day or week",
             ["what are people watching this week",
              "what's popular in movies right now",
              "show me the top trending series today"]),
        ],
    ),
    "music": (
        [
            ("spotify", "Spotify", "Spotify Web API: tracks, playlists, playback."),
            ("deezer", "Deezer", "Deezer music catalogue and playlists."),
            ("appleMusic", "Apple Music", "Apple Music catalogue and library."),
        ],
        [
            ("search_track", ["search_tracks", "searchTrack", "catalogSearchSongs"],
             ["Search for songs by title or artist.",
              "Find tracks matching a query.",
              "Search the catalogue for songs."],
             "query:string:Song or artist",
             ["find the song Bohemian Rhapsody",
              "look up the track Blinding Lights by The Weeknd",
              "search for songs by Adele",
              "can you find that tune Dancing Queen"]),
            ("create_playlist", ["create_playlist", "createPlaylist", "libraryCreatePlaylist"],
             ["Create a new playlist for the user.",
              "Create an empty playlist with a title.",
              "Create a playlist in the user's library."],
             "name:string:Playlist name;public:boolean?:Visible to others",
             ["make a new playlist called Road Trip",
              "start a playlist named Workout Mix for me",
              "create a playlist for my wedding songs"]),
            ("add_to_playlist", ["add_tracks_to_playlist", "addToPlaylist", "libraryAddTracks"],
             ["Add tracks to a playlist.",
              "Append songs to an existing playlist.",
              "Add songs to a library playlist."],
             "playlist:string:Playlist id;tracks:table:Track ids",
             ["put Hey Jude on my Sunday playlist",
              "add these three songs to the Road Trip playlist",
              "append Yellow by Coldplay to my chill playlist"]),
            ("top_tracks", ["artist_top_tracks", "artistTop", "artistTopSongs"],
             ["An artist's most popular tracks.",
              "Top songs of an artist.",
              "The top songs of an artist in a storefront."],
             "artist:string:Artist id",
             ["what are Taylor Swift's most popular songs",
              "play me the best known tracks of Radiohead",
              "list the top hits of Daft Punk"]),
            ("play", ["start_playback", "play", "playItem"],
             ["Start or resume playback on the user's active device.",
              "Play a track or playlist.",
              "Start playing an item."],
             "uri:string:Track or playlist to play;device:string?:Device id",
             ["play some jazz on my kitchen speaker",
              "start playing my Discover Weekly",
              "resume the music on my phone"]),
        ],
    ),
    "email": (
        [
            ("gmail", "Gmail", "Gmail: send, search and organise mail."),
            ("outlook", "Outlook", "Microsoft Outlook mail (Graph API)."),
            ("sendgrid", "SendGrid", "SendGrid transactional email delivery."),
        ],
        [
            ("send", ["send_email", "sendMail", "mailSend"],
             ["Send an email message to one or more recipients.",
              "Send a mail message with subject and body.",
              "Deliver an email through the SendGrid API."],
             "to:string:Recipient address;subject:string:Subject;body:string:Message text",
             ["email my landlord that the heating is broken",
              "send a message to anna@example.com saying I'll be late",
              "write to my boss that I'm sick today and send it",
              "shoot an email to the team with the meeting notes"]),
            ("search", ["search_messages", "listMessages", "searchActivity"],
             ["Search the mailbox for messages matching a query.",
              "List messages in the mailbox that match a filter.",
              "Search the email activity feed for delivered messages."],
             "query:string:Search terms, sender or subject",
             ["find the emails from my bank last month",
              "look in my inbox for the flight confirmation from Lufthansa",
              "did I get any mail from John about the contract",
              "search my mail for the invoice PDF Sarah sent"]),
            ("draft", ["create_draft", "createDraft", "templateCreate"],
             ["Create a draft email without sending it.",
              "Save a message as a draft.",
              "Create a reusable email template."],
             "to:string:Recipient;subject:string:Subject;body:string:Text",
             ["prepare a draft reply to the client but don't send it yet",
              "write a draft email to Tom about Friday's dinner",
              "save a draft to HR asking about my vacation days"]),
            ("label", ["modify_labels", "moveMessage", "suppressionAdd"],
             ["Add or remove labels on a message.",
              "Move a message to another folder.",
              "Add an address to the unsubscribe suppression list."],
             "id:string:Message id;label:string:Label or folder",
             ["move all newsletters into the Reading folder",
              "label the messages from my accountant as Taxes",
              "archive that email from the recruiter into a folder"]),
        ],
    ),
    "chat": (
        [
            ("slack", "Slack", "Slack workspace messaging."),
            ("discord", "Discord", "Discord servers, channels and messages."),
            ("teams", "Microsoft Teams", "Microsoft Teams chats and channels."),
        ],
        [
            ("post", ["chat_post_message", "createMessage", "sendChannelMessage"],
             ["Post a message to a channel.",
              "Send a message to a channel.",
              "Send a message in a team channel."],
             "channel:string:Channel id;text:string:Message text",
             ["post in #general that the deploy is done",
              "tell the dev channel the build is broken",
              "let everyone in the marketing channel know the launch moved to Monday",
              "drop a note in #random that lunch is here"]),
            ("create_channel", ["conversations_create", "createChannel", "createTeamChannel"],
             ["Create a new channel.",
              "Create a channel in a server.",
              "Create a channel in a team."],
             "name:string:Channel name;private:boolean?:Private channel",
             ["set up a new channel for the Q3 project",
              "open a private channel called incident-42",
              "make a channel for the book club"]),
            ("invite", ["conversations_invite", "addMember", "addChannelMember"],
             ["Invite users to a channel.",
              "Add a member to a server role or channel.",
              "Add a member to a channel."],
             "channel:string:Channel id;user:string:User id",
             ["add Priya to the design channel",
              "invite the new intern to #onboarding",
              "bring Marco into the incident channel"]),
            ("history", ["conversations_history", "getMessages", "listChannelMessages"],
             ["Fetch a channel's message history.",
              "Get recent messages of a channel.",
              "List the messages of a channel."],
             "channel:string:Channel id;limit:number?:How many",
             ["what did people say in #support this morning",
              "catch me up on the last messages in the release channel",
              "show the recent conversation in the ops channel"]),
            ("status", ["users_profile_set", "setPresence", "setPresence"],
             ["Set the user's status text and emoji.",
              "Set the bot's presence and activity.",
              "Set the user's availability and status message."],
             "text:string:Status text",
             ["set my status to 'in a meeting'",
              "mark me as away for the next hour",
              "change my status to out sick"]),
        ],
    ),
    "payments": (
        [
            ("stripe", "Stripe", "Stripe payments, customers and subscriptions."),
            ("paypal", "PayPal", "PayPal checkout, payouts and invoicing."),
            ("square", "Square", "Square payments and point of sale."),
        ],
        [
            ("charge", ["create_payment_intent", "createOrder", "createPayment"],
             ["Charge a customer: create a payment for an amount and currency.",
              "Create a checkout order for a payment.",
              "Take a payment with a card on file."],
             "amount:number:Amount in cents;currency:string:ISO currency code;customer:string?:Customer id",
             ["charge the customer 49 dollars for the annual plan",
              "take a payment of 120 euros from Acme Ltd",
              "bill this client 300 dollars on their card"]),
            ("refund", ["create_refund", "refundCapture", "refundPayment"],
             ["Refund a charge, in full or in part.",
              "Refund a captured payment.",
              "Refund a payment."],
             "payment:string:Payment id;amount:number?:Amount to refund",
             ["refund order 1234, the customer returned it",
              "give the client their 20 dollars back for the broken item",
              "issue a partial refund of 15 euros on the last payment"]),
            ("invoice", ["create_invoice", "createInvoice", "createInvoice"],
             ["Create an invoice for a customer.",
              "Create and send an invoice.",
              "Create an invoice for an order."],
             "customer:string:Customer id;items:table:Line items",
             ["send an invoice to Globex for the consulting hours",
              "create a bill for the design work and email it to the client",
              "make an invoice of 800 dollars for March's retainer"]),
            ("transactions", ["list_charges", "listTransactions", "listPayments"],
             ["List recent charges.",
              "Search transactions in a date range.",
              "List payments taken at a location."],
             "since:string?:From date;limit:number?:How many",
             ["show me all payments received this week",
              "list the transactions from last month",
              "what sales did we take yesterday"]),
            ("subscription", ["create_subscription", "createSubscription", "createSubscription"],
             ["Start a recurring subscription for a customer.",
              "Create a billing subscription on a plan.",
              "Create a subscription to a catalogue plan."],
             "customer:string:Customer id;plan:string:Price or plan id",
             ["sign this customer up for the monthly pro plan",
              "start a recurring 10 dollar membership for Jane",
              "put the client on a yearly subscription"]),
        ],
    ),
    "shop": (
        [
            ("shopify", "Shopify", "Shopify store admin: products, orders, inventory."),
            ("amazon", "Amazon", "Amazon product search and orders."),
            ("ebay", "eBay", "eBay buying and selling."),
        ],
        [
            ("search_products", ["products_search", "searchItems", "findItems"],
             ["Search products by keywords.",
              "Search the product catalogue.",
              "Find items for sale by keyword."],
             "query:string:Keywords;max_price:number?:Upper price",
             ["find me a cheap mechanical keyboard",
              "look for running shoes under 80 dollars",
              "search for a second hand iPhone 13",
              "I need a new coffee grinder, what's out there"]),
            ("track", ["fulfillment_tracking", "getShipment", "getTracking"],
             ["Tracking info of an order's shipment.",
              "Where a package is: carrier, status and ETA.",
              "Shipping status of a purchase."],
             "order:string:Order id",
             ["where is my package, order 5521",
              "when will my headphones arrive",
              "track the shipment of the lamp I bought"]),
            ("order", ["orders_create", "placeOrder", "placeBid"],
             ["Create an order.",
              "Buy an item: place an order.",
              "Place a bid or buy it now."],
             "item:string:Item id;quantity:number?:How many",
             ["buy two packs of AA batteries",
              "order the blue hoodie in size M",
              "purchase that vintage camera for me"]),
            ("cancel", ["orders_cancel", "cancelOrder", "cancelPurchase"],
             ["Cancel an order.",
              "Cancel an order that has not shipped.",
              "Request to cancel a purchase."],
             "order:string:Order id;reason:string?:Why",
             ["cancel my last order, I changed my mind",
              "I don't want the blender anymore, call off the purchase",
              "stop order 7788 before it ships"]),
            ("inventory", ["inventory_levels_set", "updateStock", "reviseInventory"],
             ["Set the stock level of a product at a location.",
              "Update available quantity of a listing.",
              "Revise the quantity and price of a listing."],
             "item:string:Item id;quantity:number:New stock",
             ["set stock of the red mugs to 40",
              "we only have 3 lamps left, update the listing",
              "change the available quantity of SKU 991 to zero"]),
        ],
    ),
    "code": (
        [
            ("github", "GitHub", "GitHub repositories, issues and pull requests."),
            ("gitlab", "GitLab", "GitLab projects, issues and merge requests."),
            ("bitbucket", "Bitbucket", "Bitbucket repositories and pull requests."),
        ],
        [
            ("issue", ["issues_create", "createIssue", "createIssue"],
             ["Create an issue in a repository.",
              "Create a new issue in a project.",
              "Open an issue on a repository's tracker."],
             "repo:string:owner/name;title:string:Title;body:string?:Details",
             ["open a bug report saying login fails on Safari",
              "file an issue in the api repo about the timeout",
              "create a ticket in our repository for the broken link on the homepage"]),
            ("prs", ["pulls_list", "listMergeRequests", "listPullRequests"],
             ["List pull requests of a repository.",
              "List merge requests of a project.",
              "List pull requests of a repository."],
             "repo:string:owner/name;state:string?:open, closed or all",
             ["which pull requests are still open on the frontend repo",
              "show me the merge requests waiting for review",
              "list PRs opened this week in our backend"]),
            ("merge", ["pulls_merge", "acceptMergeRequest", "mergePullRequest"],
             ["Merge a pull request.",
              "Accept and merge a merge request.",
              "Merge a pull request."],
             "repo:string:owner/name;number:number:Pull request number",
             ["merge PR 42 now that it's approved",
              "accept the merge request for the new header",
              "ship pull request 17 into main"]),
            ("search_code", ["search_code", "searchBlobs", "searchCode"],
             ["Search code across repositories.",
              "Search file contents in a project.",
              "Search code in a workspace."],
             "query:string:Text to find",
             ["where in our code do we call parseConfig",
              "find every file that mentions the old API key variable",
              "grep the repositories for TODO fixme comments"]),
            ("release", ["repos_create_release", "createRelease", "createTag"],
             ["Create a release from a tag.",
              "Create a release with notes.",
              "Create a tag on a commit."],
             "repo:string:owner/name;tag:string:Tag name;notes:string?:Release notes",
             ["publish version 2.1.0 with the changelog",
              "cut a release called v3 for the mobile app",
              "tag the current commit as 1.0 and release it"]),
        ],
    ),
    "tasks": (
        [
            ("jira", "Jira", "Jira issues, boards and sprints."),
            ("trello", "Trello", "Trello boards, lists and cards."),
            ("asana", "Asana", "Asana projects and tasks."),
        ],
        [
            ("create", ["create_issue", "createCard", "createTask"],
             ["Create an issue in a project.",
              "Create a card on a list.",
              "Create a task in a project."],
             "project:string:Project;title:string:Summary;assignee:string?:Who",
             ["add a task to update the onboarding docs",
              "create a to-do for me to call the venue",
              "put a card on the board for the logo redesign",
              "make a new task called review budget"]),
            ("assign", ["assign_issue", "addMemberToCard", "assignTask"],
             ["Assign an issue to a user.",
              "Add a member to a card.",
              "Assign a task to someone."],
             "task:string:Task id;user:string:Assignee",
             ["give the checkout bug to Luis",
              "assign the homepage card to Mei",
              "make Kim responsible for the migration task"]),
            ("move", ["transition_issue", "moveCard", "setSection"],
             ["Move an issue to another status (To Do, In Progress, Done).",
              "Move a card to another list.",
              "Move a task to another section."],
             "task:string:Task id;to:string:Status or list",
             ["mark the API ticket as done",
              "move the design card to In Progress",
              "set the invoice task to completed"]),
            ("list", ["search_issues", "getBoardCards", "getTasks"],
             ["Search issues with a query.",
              "All cards on a board.",
              "Tasks of a project or assignee."],
             "project:string:Project or board;assignee:string?:Who",
             ["what's on my plate this sprint",
              "show every open task in the marketing project",
              "list the cards left on our kanban board"]),
            ("comment", ["add_comment", "addCommentToCard", "addStory"],
             ["Comment on an issue.",
              "Add a comment to a card.",
              "Add a comment story to a task."],
             "task:string:Task id;text:string:Comment",
             ["note on the ticket that QA passed",
              "leave a comment on the pricing card asking for numbers",
              "reply on the task that I'm blocked by legal"]),
        ],
    ),
    "calendar": (
        [
            ("googleCalendar", "Google Calendar", "Google Calendar events and free/busy."),
            ("calendly", "Calendly", "Calendly scheduling links and bookings."),
        ],
        [
            ("create", ["events_insert", "createSchedulingLink"],
             ["Create a calendar event.",
              "Create a one-off scheduling link for a meeting."],
             "title:string:Title;start:string:Start time;attendees:table?:Emails",
             ["schedule a meeting with Sam on Thursday at 3pm",
              "put a dentist appointment on my calendar for Monday 9am",
              "book 30 minutes with the sales team tomorrow morning",
              "set up a call with the investors next Friday"]),
            ("list", ["events_list", "listScheduledEvents"],
             ["List events in a time range.",
              "List booked meetings."],
             "from:string:Start;to:string:End",
             ["what meetings do I have tomorrow",
              "am I busy on Wednesday afternoon",
              "show my agenda for next week"]),
            ("free", ["freebusy_query", "availableTimes"],
             ["Find free and busy times for calendars.",
              "Available time slots for an event type."],
             "from:string:Start;to:string:End;people:table?:Calendars",
             ["when are both Ana and I free this week",
              "find an open hour for the team on Tuesday",
              "what slots are available for a coffee chat"]),
            ("cancel", ["events_delete", "cancelEvent"],
             ["Delete a calendar event.",
              "Cancel a booked meeting."],
             "id:string:Event id",
             ["cancel my 4pm meeting today",
              "remove the yoga class from my calendar",
              "call off tomorrow's standup"]),
        ],
    ),
    "hotels": (
        [
            ("booking", "Booking.com", "Booking.com hotels and stays."),
            ("airbnb", "Airbnb", "Airbnb homes and experiences."),
        ],
        [
            ("search", ["search_hotels", "searchListings"],
             ["Search hotels by city and dates.",
              "Search homes to rent by location, dates and guests."],
             "city:string:Destination;checkin:string:Date;checkout:string:Date;guests:number?:Guests",
             ["find me a hotel in Lisbon near the old town for 3 nights",
              "I need a place to stay in Kyoto from May 2 to May 6",
              "look for an apartment in Barcelona for four people",
              "where can I sleep in Vienna next weekend"]),
            ("book", ["book_room", "createReservation"],
             ["Book a room at a hotel.",
              "Reserve a listing for dates."],
             "listing:string:Hotel or listing id;checkin:string:Date;checkout:string:Date",
             ["reserve the Hotel Central for two nights",
              "book that loft we looked at for the 12th to 15th",
              "grab the double room at the Marriott"]),
            ("reviews", ["hotel_reviews", "listingReviews"],
             ["Guest reviews of a hotel.",
              "Reviews left by guests of a listing."],
             "listing:string:Hotel or listing id",
             ["what do guests say about the Ritz in Madrid",
              "are the reviews of that beach house good",
              "is the hostel near the station clean according to guests"]),
        ],
    ),
    "flights": (
        [
            ("skyscanner", "Skyscanner", "Skyscanner flight search."),
            ("amadeus", "Amadeus", "Amadeus flight offers and status."),
        ],
        [
            ("search", ["search_flights", "flightOffersSearch"],
             ["Search flights between two airports on a date.",
              "Flight offers for an origin, destination and dates."],
             "origin:string:Airport or city;destination:string:Airport or city;date:string:Departure date",
             ["find a flight from New York to Lisbon on June 3",
              "what are the cheapest flights to Tokyo in April",
              "I need to fly from Berlin to Rome next Friday",
              "get me plane tickets from Boston to Denver"]),
            ("status", ["flight_status", "flightStatus"],
             ["Live status of a flight: delays, gate, arrival.",
              "On-time status of a flight by number."],
             "flight:string:Flight number;date:string?:Date",
             ["is flight BA 117 delayed",
              "has my flight LH400 landed yet",
              "what gate does UA 90 leave from"]),
            ("cheapest_dates", ["cheapest_dates", "flightCheapestDate"],
             ["The cheapest days to fly a route.",
              "Cheapest dates for a route."],
             "origin:string:From;destination:string:To",
             ["which day next month is cheapest to fly to Paris",
              "when is it cheapest to go from London to Athens",
              "what dates have the lowest fares to Cancun"]),
        ],
    ),
    "rides": (
        [
            ("uber", "Uber", "Uber rides."),
            ("lyft", "Lyft", "Lyft rides."),
        ],
        [
            ("request", ["request_ride", "createRide"],
             ["Request a ride from a pickup to a destination.",
              "Order a ride now."],
             "from:string:Pickup;to:string:Destination",
             ["get me a car to the airport",
              "call a taxi to take me home",
              "book a ride from the office to Union Square"]),
            ("estimate", ["price_estimate", "costEstimate"],
             ["Price estimate for a trip.",
              "Estimated cost and time of a ride."],
             "from:string:Pickup;to:string:Destination",
             ["how much would a cab to the stadium cost",
              "what's the fare from downtown to JFK",
              "estimate the price of a ride to the train station"]),
        ],
    ),
    "maps": (
        [
            ("googleMaps", "Google Maps", "Google Maps Platform: places, routes, geocoding."),
            ("mapbox", "Mapbox", "Mapbox geocoding and navigation."),
        ],
        [
            ("geocode", ["geocode", "forwardGeocode"],
             ["Coordinates of an address.",
              "Turn an address or place name into coordinates."],
             "address:string:Address",
             ["what are the coordinates of 10 Downing Street",
              "get the latitude and longitude of the Eiffel Tower",
              "convert this address to GPS coordinates"]),
            ("directions", ["directions", "getDirections"],
             ["Route and travel time between two places.",
              "Turn-by-turn directions between points."],
             "from:string:Origin;to:string:Destination;mode:string?:driving, walking, transit",
             ["how do I get from the hotel to the Louvre on foot",
              "give me driving directions to the beach",
              "what's the fastest way to the airport by train"]),
            ("nearby", ["places_nearby", "searchPOI"],
             ["Places of a type near a location.",
              "Points of interest around a point."],
             "location:string:Where;type:string:Kind of place",
             ["is there a pharmacy open near me",
              "find coffee shops around the conference center",
              "any gas stations close to my current position"]),
        ],
    ),
    "sms": (
        [
            ("twilio", "Twilio", "Twilio SMS, voice and verification."),
            ("vonage", "Vonage", "Vonage messages and voice."),
        ],
        [
            ("send", ["messages_create", "sendSms"],
             ["Send an SMS text message to a phone number.",
              "Send a text message."],
             "to:string:Phone number;body:string:Text",
             ["text my wife that I'm on my way",
              "send an SMS to +1 555 0100 saying the order is ready",
              "message the driver's phone that we're at gate B"]),
            ("call", ["calls_create", "createCall"],
             ["Place an outbound phone call.",
              "Make a voice call that speaks a message."],
             "to:string:Phone number;say:string?:What to say",
             ["phone the customer and read them the appointment reminder",
              "ring my mobile to test the voice line",
              "make an automated call to the on-call engineer"]),
            ("verify", ["verify_start", "verifyRequest"],
             ["Send a one-time verification code to a phone.",
              "Start a phone verification with a PIN."],
             "to:string:Phone number",
             ["send a login code to this user's phone",
              "verify the new signup's phone number with a PIN",
              "text a 2FA code to +44 7700 900123"]),
        ],
    ),
    "storage": (
        [
            ("dropbox", "Dropbox", "Dropbox files and sharing."),
            ("googleDrive", "Google Drive", "Google Drive files and folders."),
        ],
        [
            ("upload", ["files_upload", "filesCreate"],
             ["Upload a file.",
              "Upload a file to a folder."],
             "path:string:Destination;content:string:File content",
             ["save this report to my cloud storage",
              "upload the photos from the trip to the Family folder",
              "back up the spreadsheet to the shared drive"]),
            ("share", ["sharing_create_link", "permissionsCreate"],
             ["Create a shared link to a file.",
              "Share a file with people or anyone with the link."],
             "path:string:File;email:string?:Who",
             ["share the pitch deck with the investors",
              "give me a link to the wedding photos I can send around",
              "let Carla edit the budget file"]),
            ("search", ["files_search", "filesList"],
             ["Search files by name or content.",
              "List and search files."],
             "query:string:Name or text",
             ["find the contract PDF somewhere in my files",
              "where did I put the 2023 tax return document",
              "look for the slides from the offsite in my drive"]),
        ],
    ),
    "finance": (
        [
            ("alphaVantage", "Alpha Vantage", "Alpha Vantage stock market data."),
            ("coinGecko", "CoinGecko", "CoinGecko cryptocurrency prices."),
            ("exchangeRates", "the exchange rates API", "Foreign exchange rates and conversion."),
        ],
        [
            ("stock_quote", ["global_quote", None, None],
             ["Latest price and change of a stock symbol.", None, None],
             "symbol:string:Ticker",
             ["how is Apple stock doing today",
              "what's the share price of Tesla",
              "get me the latest quote for MSFT"]),
            ("stock_history", ["time_series_daily", None, None],
             ["Daily open, high, low, close of a stock.", None, None],
             "symbol:string:Ticker;from:string?:Start date",
             ["show Nvidia's closing prices for the past month",
              "how did Amazon shares move over the last year",
              "chart the daily prices of IBM since January"]),
            ("crypto_price", [None, "simplePrice", None],
             [None, "Current price of coins in a currency.", None],
             "ids:string:Coin ids;vs:string:Currency",
             ["what is bitcoin worth right now",
              "price of ethereum in euros",
              "how much is one solana in dollars"]),
            ("convert", [None, None, "convert"],
             [None, None, "Convert an amount from one currency to another."],
             "from:string:Currency code;to:string:Currency code;amount:number:Amount",
             ["convert 200 euros to dollars",
              "how many yen do I get for 50 pounds",
              "what is 1000 Swiss francs in US currency"]),
            ("rates", [None, None, "latest"],
             [None, None, "Latest exchange rates against a base currency."],
             "base:string:Base currency",
             ["what's the euro to dollar rate today",
              "give me today's exchange rates for the pound",
              "how strong is the yen against the dollar right now"]),
        ],
    ),
    "news": (
        [
            ("newsApi", "NewsAPI", "Headlines and articles from thousands of sources."),
            ("nytimes", "the New York Times", "The New York Times article search and top stories."),
        ],
        [
            ("headlines", ["top_headlines", "topStories"],
             ["Top headlines for a country or category.",
              "Top stories of a section."],
             "category:string?:Section;country:string?:Country",
             ["what's in the news today",
              "give me the top technology headlines",
              "what are the main stories in sports this morning"]),
            ("search", ["everything", "articleSearch"],
             ["Search articles by keywords and date.",
              "Search articles by query and date."],
             "query:string:Keywords;from:string?:Since",
             ["find articles about the central bank raising rates",
              "look for news coverage of the Mars landing",
              "what has been written about electric cars this month"]),
        ],
    ),
    "translate": (
        [
            ("deepl", "DeepL", "DeepL translation."),
            ("googleTranslate", "Google Translate", "Google Cloud Translation."),
        ],
        [
            ("translate", ["translate_text", "translate"],
             ["Translate text into a target language.",
              "Translate text between languages."],
             "text:string:Text;target:string:Language code",
             ["translate 'where is the train station' into Japanese",
              "how do you say thank you very much in German",
              "put this paragraph into Spanish for me"]),
            ("detect", [None, "detectLanguage"],
             [None, "Detect the language of a text."],
             "text:string:Text",
             ["what language is this sentence written in",
              "figure out which language the customer's message is in",
              "is this text Portuguese or Spanish"]),
        ],
    ),
    "jobs": (
        [
            ("linkedin", "LinkedIn", "LinkedIn jobs and profiles."),
            ("indeed", "Indeed", "Indeed job search and salaries."),
        ],
        [
            ("search", ["job_search", "searchJobs"],
             ["Search job postings by title and location.",
              "Find jobs by keywords and place."],
             "title:string:Role;location:string?:Where",
             ["find remote data engineer jobs",
              "are there any nurse openings in Toronto",
              "look for junior designer positions in Berlin"]),
            ("salary", [None, "salaryEstimate"],
             [None, "Typical salary for a job title in a place."],
             "title:string:Role;location:string?:Where",
             ["how much does a product manager earn in Seattle",
              "what's the average pay for a welder",
              "typical salary of a data scientist in London"]),
        ],
    ),
}

# Admin tools every service has: the same jobs under each service's name (noise a request
# never asks for, and near-duplicates of each other).
ADMIN = [
    ("account", ["get_account", "getAccount", "accountInfo"],
     "Details of the authenticated account: plan, limits, owner."),
    ("webhooks", ["list_webhooks", "listWebhooks", "webhooksList"],
     "Webhook subscriptions registered for the account."),
    ("usage", ["api_usage", "getUsage", "usageStats"],
     "API usage and remaining quota for the current period."),
]

# Requests that no tool of the catalogue serves (several share words with tools).
NONE = [
    "water the plants on my balcony every morning",
    "turn off the living room lights",
    "book a haircut at the barber for Saturday",
    "what's my blood pressure trend this month",
    "order a large pepperoni pizza for delivery",
    "lock the front door of my house",
    "set the thermostat to 21 degrees",
    "renew my passport before the trip",
    "feed the cat at 6pm",
    "file my tax return for last year",
    "start the robot vacuum in the kitchen",
    "play chess against me",
    "solve this quadratic equation x^2 - 5x + 6 = 0",
    "print the boarding pass on the office printer",
    "adjust the volume of the TV in the bedroom",
    "remind my grandmother to take her pills",
    "scan this receipt and extract the total",
    "compile my Rust project with optimisations",
    "change the oil in my car",
    "open the garage door",
    "what is the meaning of life",
    "knit me a scarf pattern for beginners",
    "measure the size of my living room with the camera",
    "calculate my body mass index",
    "register my dog with the city",
    "defragment my hard disk",
    "take a screenshot of my desktop",
    "vote in the local election",
    "brew a cup of coffee with the smart machine",
    "resize this image to 800 by 600",
    "check my car's tyre pressure",
    "count the calories in my lunch photo",
    "run the dishwasher on eco mode",
    "draw a birthday card for my niece",
    "ping the server at 10.0.0.5",
    "write a haiku about autumn",
    "update my LinkedIn profile picture",
    "unsubscribe from all Spotify marketing emails in my settings",
    "how many steps did I walk today",
    "dim the bedroom lights to 30 percent",
]

OPENERS = [
    "Hi! I could use a hand with a couple of things today.",
    "Hey, I'm juggling a lot this week, so could you please help me out?",
    "Good morning. I have a few errands for you, if you don't mind.",
    "Okay, so here is what I need, and sorry in advance that it's a bit of a list.",
    "Hello there, quick favour before my next meeting starts.",
    "I'm sorting out some stuff for work and for home at the same time.",
]
CLOSERS = [
    "Thanks a lot, I really appreciate it!",
    "Let me know once that's all done, thank you.",
    "That would save me a lot of time, cheers.",
    "No rush, but today would be great.",
    "",
]
JOINS2 = [", and then ", ". After that, please ", ", and also ", "; and ", ". Also, "]
JOINS3 = [", then ", "; also ", ", and ", ". Oh, and "]


def tool_source(name, description, args):
    lines = [f"--!desc {description}"]
    params = []
    for arg in filter(None, args.split(";")):
        pname, ptype, pdesc = arg.split(":", 2)
        params.append(f"{pname}: {ptype}")
        lines.append(f"--!arg {pname} {ptype} {pdesc}")
    lines += [f"local function {name}({', '.join(params)}): any", "\treturn nil", "end", "", f"return {name}", ""]
    return "\n".join(lines)


def catalogue():
    """toolboxes: {box: description}; tools: {identity: source}; serves: {(domain, cap, box): identity}."""
    boxes, tools, serves = {}, {}, {}
    for domain, (services, caps) in DOMAINS.items():
        for i, (box, _, desc) in enumerate(services):
            boxes[box] = desc
            for key, names, descs, args, _ in caps:
                name, d = names[i % len(names)], descs[i % len(descs)]
                if name is None:
                    continue
                identity = f"{box}.{name}"
                tools[identity] = tool_source(name, d, args)
                serves[(domain, key, box)] = identity
            for j, (_, names, d) in enumerate(ADMIN):
                name = names[(i + j) % len(names)]
                tools[f"{box}.{name}"] = tool_source(name, d, "")
    return boxes, tools, serves


def parts(serves, split, rng):
    """Every (ask text, gold identities, domain) of one split; a third of them name the service."""
    out = []
    for domain, (services, caps) in DOMAINS.items():
        for key, _, _, _, asks in caps:
            offered = [(box, shown) for box, shown, _ in services if (domain, key, box) in serves]
            for n, ask in enumerate(asks):
                if (n % 2 == 0) != (split == "dev"):
                    continue
                gold = [serves[(domain, key, box)] for box, _ in offered]
                out.append((ask, gold, domain))
                if len(offered) > 1:
                    box, shown = rng.choice(offered)
                    via = rng.choice([" on {}", " using {}", " with {}", " via {}"]).format(shown)
                    out.append((ask + via, [serves[(domain, key, box)]], domain))
    return out


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/search_eval"
    rng = random.Random(12)
    boxes, tools, serves = catalogue()
    short, long_, none = [], [], []
    for split in ("dev", "test"):
        pool = parts(serves, split, rng)
        for n, (ask, gold, _) in enumerate(pool):
            short.append({"id": f"short-{split}-{n}", "query": ask, "gold": gold, "split": split})
        made = 0
        while made < 160:
            k = 2 if rng.random() < 0.55 else 3
            picked = rng.sample(pool, k)
            if len({p[2] for p in picked}) < k:
                continue
            first = picked[0][0]
            text = rng.choice(OPENERS) + " " + first[0].upper() + first[1:]
            joins = JOINS2 if k == 2 else JOINS3
            for p in picked[1:-1]:
                text += rng.choice(joins) + p[0]
            text += (", and finally " if k == 3 else rng.choice(JOINS2)) + picked[-1][0] + "."
            closer = rng.choice(CLOSERS)
            text = (text + " " + closer).strip()
            if len(text.split()) < 30:
                text = "I'm planning my week and there is a lot going on. " + text
            if len(text.split()) < 30:
                continue
            long_.append({
                "id": f"long-{split}-{made}",
                "query": text,
                "parts": [p[1] for p in picked],
                "split": split,
            })
            made += 1
    for n, q in enumerate(NONE):
        none.append({"id": f"none-{n}", "query": q, "gold": [], "split": "dev" if n % 2 == 0 else "test"})
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "catalogue.json"), "w", encoding="utf-8") as f:
        json.dump({"toolboxes": boxes, "tools": tools}, f, indent=1, sort_keys=True)
    for name, queries in (("short", short), ("long", long_), ("none", none)):
        with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as f:
            json.dump(queries, f, indent=1)
    print(f"{len(tools)} tools in {len(boxes)} toolboxes; {len(short)} short, {len(long_)} long, {len(none)} nothing-fits requests in {out}")


if __name__ == "__main__":
    main()
