import type { WidgetType } from '../../schemas/generated/types';
import type { WidgetComponent } from '../../widgets/widget-props';
import { Button } from '../../widgets/button';
import { Choice } from '../../widgets/choice';
import { Input } from '../../widgets/input';
import { LanguageChooser } from '../../widgets/language-chooser';
import { Popup } from '../../widgets/popup';
import { SocialLoginButtons } from '../../widgets/social-login-buttons';
import { Text } from '../../widgets/text';
import { lazyWidget } from './lazy-widget';
import { loadUploads } from './lazy-uploads';

/**
 * The one map from `widget_type` to its component (CONVENTIONS: the registry is one typed map). Typed
 * with `satisfies Record<WidgetType, WidgetComponent>`, so a widget type added to
 * schemas/widget-type.schema.json without a component here fails to compile. The engine looks a type up
 * here and knows no widget by name; an unknown type draws the engine's quiet fallback.
 *
 * The widgets of the public screens (sign_up, login…: text, input, button, popup, language_chooser,
 * social_login_buttons, choice) come with the page, so that the first screen is drawn as soon as its payload
 * arrives, without a further round trip for widget code (issue 13); every other widget is a chunk of its
 * own, fetched with its validator when a screen's payload names it (and preloaded by a page that carries
 * such a screen). The language chooser's list variant, drawn by no sign-in screen, is a chunk of its own
 * too, fetched before a screen with it is drawn (widgets/widget-props.ts `ContentsCode`). `npm run size`
 * checks the result.
 */
export const widgetRegistry = {
  text: Text,
  input: Input,
  button: Button,
  popup: Popup,
  language_chooser: LanguageChooser,
  social_login_buttons: SocialLoginButtons,
  choice: Choice,
  confirmation: lazyWidget(() => import('../../widgets/confirmation').then((m) => m.Confirmation)),
  empty_state: lazyWidget(() => import('../../widgets/empty-state').then((m) => m.EmptyState)),
  redirect: lazyWidget(() => import('../../widgets/redirect').then((m) => m.Redirect)),
  checklist: lazyWidget(() => import('../../widgets/checklist').then((m) => m.Checklist)),
  multi_choice: lazyWidget(() => import('../../widgets/multi-choice').then((m) => m.MultiChoice)),
  item_list: lazyWidget(() => import('../../widgets/item-list').then((m) => m.ItemList)),
  // The map loads Leaflet on its own, lazily again; place search carries MUI's Autocomplete and Popper.
  map_pin: lazyWidget(() => import('../../widgets/map-pin').then((m) => m.MapPin)),
  place_search: lazyWidget(() => import('../../widgets/place-search').then((m) => m.PlaceSearch)),
  // Only the images screen draws these: their code is a chunk of its own, fetched when first drawn.
  // The uploaders load the upload manager with them (`lazy-uploads.ts`): no other widget uses it.
  image_uploader: lazyWidget(() =>
    Promise.all([import('../../widgets/image-uploader'), loadUploads()]).then(([m]) => m.ImageUploader),
  ),
  photo_tips: lazyWidget(() => import('../../widgets/photo-tips').then((m) => m.PhotoTips)),
  contact_verification: lazyWidget(() =>
    import('../../widgets/contact-verification').then((m) => m.ContactVerification),
  ),
  document_uploader: lazyWidget(() =>
    Promise.all([import('../../widgets/document-uploader'), loadUploads()]).then(([m]) => m.DocumentUploader),
  ),
  photo_gallery: lazyWidget(() => import('../../widgets/photo-gallery').then((m) => m.PhotoGallery)),
  property_card: lazyWidget(() => import('../../widgets/property-card').then((m) => m.PropertyCard)),
  referral_header: lazyWidget(() => import('../../widgets/referral-header').then((m) => m.ReferralHeader)),
  table: lazyWidget(() => import('../../widgets/table').then((m) => m.Table)),
  thanks: lazyWidget(() => import('../../widgets/thanks').then((m) => m.Thanks)),
  exit_screen: lazyWidget(() => import('../../widgets/exit-screen').then((m) => m.ExitScreen)),
  reminder_button: lazyWidget(() => import('../../widgets/reminder-button').then((m) => m.ReminderButton)),
} satisfies Record<WidgetType, WidgetComponent>;
